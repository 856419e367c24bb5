package sdk

// Icon is an image that stands for a mod, a tool, a slash command (a
// prompt) or a resource in a client's interface (MCP's icons): give File
// or URL, and like the rest of the declaration, every value as a
// compile-time constant.
type Icon struct {
	// File is the name of an image in the mod's package directory (not
	// a subdirectory): PNG, SVG, JPEG or WebP, at most 64 KiB. modgen
	// reads it when it generates, and the manifest carries it as a data:
	// URI, so a client needs no network to show it. Editing it makes the
	// mod stale until go generate runs, as editing its Go files does.
	File string
	// URL is an https URL a client fetches the image from.
	URL string
	// MIMEType is the type of the image at URL, when its server's may
	// not say; modgen finds a File's itself.
	MIMEType string
	// Sizes are the sizes the image suits, each "WxH" ("48x48") or "any"
	// (a scalable image, such as SVG); empty for any.
	Sizes []string
	// Theme is IconLight or IconDark for an image drawn for that
	// background; empty for any.
	Theme string
}

// The themes an icon may be drawn for.
const (
	IconLight = "light"
	IconDark  = "dark"
)
