package mcpbridge

import (
	"encoding/base64"
	"fmt"
	"mime"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// outputContent turns the i-th output of a plain tool's result into MCP
// content by its MIME type: image/* is image content, audio/* audio content,
// anything else an embedded resource named by the output's URI, or by
// modkit://<tool>/<call id>/<i> when it has none. Binary content that is not
// valid base64 is embedded as text, so nothing is lost.
func outputContent(res *host.CallResult, i int, o sdk.Output) mcp.Content {
	mt := mediaType(o.MimeType)
	textual := isTextType(mt)
	var data []byte
	if !textual {
		b, err := base64.StdEncoding.DecodeString(o.Content)
		if err != nil {
			textual = true
		} else {
			data = b
		}
	}
	switch {
	case !textual && strings.HasPrefix(mt, "image/"):
		return &mcp.ImageContent{MIMEType: o.MimeType, Data: data}
	case !textual && strings.HasPrefix(mt, "audio/"):
		return &mcp.AudioContent{MIMEType: o.MimeType, Data: data}
	}
	uri := o.URI
	if uri == "" {
		uri = fmt.Sprintf("modkit://%s/%s/%d", res.Tool, res.CallID, i)
	}
	rc := &mcp.ResourceContents{URI: uri, MIMEType: o.MimeType}
	if textual {
		rc.Text = o.Content
	} else {
		rc.Blob = data
	}
	return &mcp.EmbeddedResource{Resource: rc}
}

// mediaType returns the lower-case type/subtype of a MIME type, without
// parameters.
func mediaType(s string) string {
	mt, _, err := mime.ParseMediaType(s)
	if err != nil {
		mt, _, _ = strings.Cut(s, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
	}
	return mt
}

// isTextType reports whether an output of this media type carries plain
// text rather than base64, as sdk.Output documents: text/* and
// application/json.
func isTextType(mt string) bool {
	return strings.HasPrefix(mt, "text/") || mt == "application/json"
}
