package mcpbridge

import (
	"encoding/json"
	"testing"

	"github.com/modkit/modkit/host"
)

// FuzzOpenState: whatever a client sends as requestState, open refuses it
// unless this server sealed it, and never panics.
func FuzzOpenState(f *testing.F) {
	st, err := newStates(nil, 0)
	if err != nil {
		f.Fatal(err)
	}
	const owner = `https://issuer.example sub "ada"`
	q := host.Question{Kind: host.AskForm, Key: "name", Params: json.RawMessage(`{"message":"m"}`)}
	sealed, err := st.seal(owner, "t", []byte(`{}`), nil, []host.Question{q})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sealed)
	f.Add("")
	f.Add("not base64!")
	f.Add(sealed[:len(sealed)/2])
	f.Fuzz(func(t *testing.T, token string) {
		got, err := st.open(owner, "t", []byte(`{}`), token)
		if token == sealed {
			if err != nil || len(got.Pending) != 1 || got.Pending[0].Key != "name" {
				t.Fatalf("the sealed state: got %+v, %v", got, err)
			}
			return
		}
		if err == nil {
			t.Fatalf("a state this server did not seal opened: %q", token)
		}
	})
}
