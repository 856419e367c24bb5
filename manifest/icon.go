package manifest

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Icon is an image that stands for a mod or a tool in a client's
// interface: MCP's Icon (SEP-973), which tools/list carries.
type Icon struct {
	// Src is the image: a data: URI that holds it in base64, or an https
	// URL a client fetches it from.
	Src string `json:"src"`
	// MIMEType is the image's type, one of IconTypes; modgen records it
	// for an image it embeds.
	MIMEType string `json:"mimeType,omitempty"`
	// Sizes are the sizes the image suits, each "WxH" ("48x48") or "any"
	// (a scalable image, such as SVG).
	Sizes []string `json:"sizes,omitempty"`
	// Theme is "light" or "dark" for an image drawn for that background;
	// empty for any.
	Theme string `json:"theme,omitempty"`
}

// MaxIconBytes bounds the image an icon embeds in a data: URI.
const MaxIconBytes = 64 << 10

// IconTypes are the image types an icon may have: those MCP clients are
// asked to show.
func IconTypes() []string {
	return []string{"image/png", "image/svg+xml", "image/jpeg", "image/webp"}
}

var iconSize = regexp.MustCompile(`^(any|[1-9][0-9]{0,4}x[1-9][0-9]{0,4})$`)

// CheckIcon returns what is wrong with an icon, or "".
func CheckIcon(ic Icon) string {
	typ := ic.MIMEType
	if data, ok := strings.CutPrefix(ic.Src, "data:"); ok {
		meta, payload, found := strings.Cut(data, ",")
		embedded, isBase64 := strings.CutSuffix(meta, ";base64")
		switch {
		case !found || !isBase64:
			return "src: a data: URI must be data:TYPE;base64,DATA"
		case !slices.Contains(IconTypes(), embedded):
			return fmt.Sprintf("src: a data: URI of type %q: want one of %s", embedded, strings.Join(IconTypes(), ", "))
		case typ != "" && typ != embedded:
			return fmt.Sprintf("mimeType %q differs from the data: URI's %q", typ, embedded)
		}
		img, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			return "src: a data: URI whose data is not base64: " + err.Error()
		}
		if len(img) > MaxIconBytes {
			return fmt.Sprintf("src: a data: URI of %d bytes: an embedded image has at most %d", len(img), MaxIconBytes)
		}
		typ = ""
	} else if msg := CheckIconURL(ic.Src); msg != "" {
		return "src: " + msg
	}
	if typ != "" && !slices.Contains(IconTypes(), typ) {
		return fmt.Sprintf("mimeType %q: want one of %s", typ, strings.Join(IconTypes(), ", "))
	}
	for _, s := range ic.Sizes {
		if !iconSize.MatchString(s) {
			return fmt.Sprintf("sizes: %q is neither WxH (like \"48x48\") nor \"any\"", s)
		}
	}
	if ic.Theme != "" && ic.Theme != "light" && ic.Theme != "dark" {
		return fmt.Sprintf("theme %q is neither \"light\" nor \"dark\"", ic.Theme)
	}
	return ""
}

// CheckIconURL returns what is wrong with the URL of an icon a client
// fetches, or "": it must be an absolute https URL with a host.
func CheckIconURL(s string) string {
	u, err := url.Parse(s)
	switch {
	case s == "":
		return "empty: give an https URL or a data: URI"
	case err != nil:
		return fmt.Sprintf("%q is not a URL: %v", s, err)
	case u.Scheme != "https":
		return fmt.Sprintf("%q is not https: an icon's URL must be https, so that no one on the way can change it", s)
	case u.Host == "":
		return fmt.Sprintf("%q names no host", s)
	}
	return ""
}

// icons checks the icons of entry (or the manifest's, entry ""), under
// field "icons".
func (v *validator) icons(entry string, icons []Icon) {
	for i, ic := range icons {
		if msg := CheckIcon(ic); msg != "" {
			where := fmt.Sprintf("icons[%d]", i)
			if entry != "" {
				where = entry + " " + where
			}
			v.add(where, msg)
		}
	}
}
