package build

import "testing"

func TestImageType(t *testing.T) {
	tests := []struct {
		data, want string
	}{
		{"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image/png"},
		{"\xff\xd8\xff\xe0\x00\x10JFIF", "image/jpeg"},
		{"RIFF\x24\x00\x00\x00WEBPVP8 ", "image/webp"},
		{`<svg xmlns="http://www.w3.org/2000/svg"/>`, "image/svg+xml"},
		{"\ufeff<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg/>", "image/svg+xml"},
		{`<html><svg/></html>`, ""},
		{"GIF89a", ""},
		{"RIFF\x24\x00\x00\x00WAVE", ""},
		{"plain text", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := imageType([]byte(tt.data)); got != tt.want {
			t.Errorf("imageType(%q): got %q, want %q", tt.data, got, tt.want)
		}
	}
}
