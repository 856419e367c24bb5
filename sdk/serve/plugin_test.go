//go:build linux || darwin

package serve

import (
	"bytes"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/sdk"
)

// TestStdioData checks the bytes of go-plugin's StdioData message
// {Channel channel = 1; bytes data = 2}, which its client decodes.
func TestStdioData(t *testing.T) {
	t.Parallel()
	b, err := proto.Marshal(stdioData(stdioErr, []byte("line\n")))
	if err != nil {
		t.Fatal(err)
	}
	var channel uint64
	var data []byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.VarintType:
			channel, n = protowire.ConsumeVarint(b)
		case num == 2 && typ == protowire.BytesType:
			data, n = protowire.ConsumeBytes(b)
		default:
			t.Fatalf("unexpected field %d of type %d", num, typ)
		}
		if n < 0 {
			t.Fatalf("bad field %d: %v", num, protowire.ParseError(n))
		}
		b = b[n:]
	}
	if channel != 2 || !bytes.Equal(data, []byte("line\n")) {
		t.Errorf("got channel %d, data %q; want 2 (stderr), %q", channel, data, "line\n")
	}
}

// TestServeByHand checks that a mod binary run without a host's cookie
// refuses to serve.
func TestServeByHand(t *testing.T) {
	t.Setenv(protocol.MagicCookieKey, "")
	err := Serve(&sdk.Generated{Manifest: []byte(`{}`)}, nil)
	if err == nil || !strings.Contains(err.Error(), "not meant to be run by hand") {
		t.Errorf("got %v, want the by-hand error", err)
	}
}
