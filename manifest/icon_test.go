package manifest_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/modkit/modkit/manifest"
)

func TestCheckIcon(t *testing.T) {
	svg := "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`))
	big := "data:image/png;base64," + base64.StdEncoding.EncodeToString(make([]byte, manifest.MaxIconBytes+1))
	tests := []struct {
		icon manifest.Icon
		want string // a part of the problem; "" for none
	}{
		{manifest.Icon{Src: svg, MIMEType: "image/svg+xml", Sizes: []string{"any"}}, ""},
		{manifest.Icon{Src: "https://icons.example.com/a.png", MIMEType: "image/png", Sizes: []string{"16x16", "48x48"}, Theme: "light"}, ""},
		{manifest.Icon{Src: "http://icons.example.com/a.png"}, `src: "http://icons.example.com/a.png" is not https`},
		{manifest.Icon{Src: "ftp://icons.example.com/a.png"}, "is not https"},
		{manifest.Icon{Src: "https:///a.png"}, "names no host"},
		{manifest.Icon{Src: ""}, "src: empty"},
		{manifest.Icon{Src: "data:text/html;base64,PGI+"}, `data: URI of type "text/html"`},
		{manifest.Icon{Src: "data:image/png,raw"}, "must be data:TYPE;base64,DATA"},
		{manifest.Icon{Src: "data:image/png;base64,!!"}, "not base64"},
		{manifest.Icon{Src: big}, "an embedded image has at most 65536"},
		{manifest.Icon{Src: svg, MIMEType: "image/png"}, `mimeType "image/png" differs from the data: URI's "image/svg+xml"`},
		{manifest.Icon{Src: "https://icons.example.com/a", MIMEType: "image/gif"}, `mimeType "image/gif"`},
		{manifest.Icon{Src: svg, Sizes: []string{"48"}}, `sizes: "48" is neither`},
		{manifest.Icon{Src: svg, Theme: "blue"}, `theme "blue"`},
	}
	for _, tt := range tests {
		got := manifest.CheckIcon(tt.icon)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("CheckIcon(%+v): got %q, want %q", tt.icon, got, tt.want)
		}
	}
}
