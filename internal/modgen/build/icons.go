package build

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/manifest"
)

// icons converts the icons of owner ("mod notes", "tool notes_count"): a
// File is read from the package's directory and embedded as a data: URI,
// a URL must be https. Each problem is reported at the field it is about.
func (b *builder) icons(owner string, declared []load.Icon) []manifest.Icon {
	var out []manifest.Icon
	for i, ic := range declared {
		where := sprintf("%s Icons[%d]", owner, i)
		if ic.File.Bad || ic.URL.Bad || ic.MIMEType.Bad || ic.Theme.Bad {
			continue // load reported it
		}
		mi := manifest.Icon{MIMEType: ic.MIMEType.Value, Theme: ic.Theme.Value}
		for _, s := range ic.Sizes {
			mi.Sizes = append(mi.Sizes, s.Value)
		}
		switch {
		case ic.File.Value != "" && ic.URL.Value != "":
			b.errorf(ic.Pos, "%s sets both File and URL: give one", where)
			continue
		case ic.File.Value != "":
			typ, data, msg := readIcon(packageDir(b.pkg), ic.File.Value)
			if msg == "" && mi.MIMEType != "" && mi.MIMEType != typ {
				msg = sprintf("is %s, not the %s its MIMEType says", typ, mi.MIMEType)
			}
			if msg != "" {
				b.errorf(ic.File.Pos, "%s.File %q %s", where, ic.File.Value, msg)
				continue
			}
			mi.Src = "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(data)
			mi.MIMEType = typ
		case ic.URL.Value != "":
			if msg := manifest.CheckIconURL(ic.URL.Value); msg != "" {
				b.errorf(ic.URL.Pos, "%s.URL %s", where, msg)
				continue
			}
			mi.Src = ic.URL.Value
		default:
			b.errorf(ic.Pos, "%s gives neither File (an image in the package's directory) nor URL (https)", where)
			continue
		}
		if msg := manifest.CheckIcon(mi); msg != "" {
			b.errorf(ic.Pos, "%s: %s", where, msg)
			continue
		}
		out = append(out, mi)
	}
	return out
}

// FileIcon reads the image at path (PNG, SVG, JPEG or WebP, at most
// manifest.MaxIconBytes) as an icon that embeds it as a data: URI, as
// modgen embeds a mod's File icons.
func FileIcon(path string) (manifest.Icon, error) {
	typ, data, msg := readIcon(filepath.Dir(path), filepath.Base(path))
	if msg != "" {
		return manifest.Icon{}, errors.New(path + " " + strings.Replace(msg, "the package's directory", "its directory", 1))
	}
	return manifest.Icon{Src: "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(data), MIMEType: typ}, nil
}

// readIcon reads the image file of an icon in dir, and returns its type,
// or what is wrong with it.
func readIcon(dir, file string) (typ string, data []byte, problem string) {
	if !filepath.IsLocal(file) {
		return "", nil, "is not a path inside the package's directory"
	}
	if strings.ContainsAny(file, `/\`) {
		return "", nil, "is in a subdirectory: give an image of the package's directory itself, whose edits make the mod stale (freshness)"
	}
	f, err := os.Open(filepath.Join(dir, file))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", nil, "does not exist in the package's directory"
		}
		return "", nil, sprintf("cannot be read: %v", err)
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, manifest.MaxIconBytes+1))
	switch {
	case err != nil:
		return "", nil, sprintf("cannot be read: %v", err)
	case len(data) > manifest.MaxIconBytes:
		return "", nil, sprintf("is over %d bytes: an embedded icon has at most that", manifest.MaxIconBytes)
	}
	if typ = imageType(data); typ == "" {
		return "", nil, "is not a PNG, SVG, JPEG or WebP image"
	}
	return typ, data, ""
}

// imageType returns the icon type of an image by its content, or "".
func imageType(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "image/webp"
	case isSVG(data):
		return "image/svg+xml"
	}
	return ""
}

// isSVG reports whether data is XML whose root element is svg.
func isSVG(data []byte) bool {
	if !utf8.Valid(data) {
		return false
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		if el, ok := tok.(xml.StartElement); ok {
			return el.Name.Local == "svg"
		}
	}
}
