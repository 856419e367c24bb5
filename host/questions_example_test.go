package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/modkit/modkit/host"
)

// formAsker answers every form from a table of values by field, as an
// application's dialog would after showing the question.
type formAsker map[string]any

func (formAsker) CanAsk(kind host.QuestionKind) bool { return kind == host.AskForm }

func (a formAsker) Ask(_ context.Context, q *host.Question) (json.RawMessage, error) {
	fmt.Println("asked:", q.Message)
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	json.Unmarshal(q.Schema, &s)
	values := map[string]any{}
	for name := range s.Properties {
		values[name] = a[name]
	}
	return host.FormAnswer("accept", values), nil
}

func ExampleAsker() {
	h, err := host.Load([]string{"testdata/mods/asking"}, &host.Options{CacheDir: cacheDir, Progress: io.Discard})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool:  "asking_greet",
		Asker: formAsker{"name": "Ada", "color": "green"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, res.Text)
	// Output:
	// asked: What is your name?
	// asked: Which colour?
	// completed Hello Ada, green
}
