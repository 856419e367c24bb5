package modserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"

	"github.com/modkit/modkit/internal/sdkrt"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk"
)

// actions checks the client actions a handler of t emitted, before they
// leave the mod: each kind must be one t declares, and its parameters must
// pass the kind's generated check (or, for a mod without generated code,
// be a JSON object). It returns them, or the failure naming the first bad
// one.
func (s *Server) actions(t sdkrt.Tool, emitted []sdkrt.Action) ([]sdk.ClientAction, string) {
	if len(emitted) == 0 {
		return nil, ""
	}
	name := t.Name()
	declared := t.ClientActionKinds()
	out := make([]sdk.ClientAction, len(emitted))
	for i, a := range emitted {
		if !slices.Contains(declared, a.Kind) {
			return nil, words.BadAction(name, i, a.Kind, words.UndeclaredAction(declared))
		}
		if a.Err != nil {
			return nil, words.BadAction(name, i, a.Kind, "params cannot be encoded: "+words.Encode(a.Err))
		}
		if why := s.checkParams(a.Kind, a.Params); why != "" {
			return nil, words.BadAction(name, i, a.Kind, why)
		}
		out[i] = sdk.ClientAction{Kind: a.Kind, Params: a.Params}
	}
	return out, ""
}

// checkParams says what is wrong with the parameters of an action of kind,
// or returns "".
func (s *Server) checkParams(kind string, params []byte) string {
	check, ok := s.g.ClientActions[kind]
	if !ok {
		if !json.Valid(params) || !bytes.HasPrefix(bytes.TrimLeft(params, " \t\r\n"), []byte("{")) {
			return words.InvalidParams([]string{"params must be a JSON object"})
		}
		return ""
	}
	err := s.recovered("params check of client action ", kind, func() error { return check(params) })
	var ie *sdk.InputError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &ie):
		return words.InvalidParams(words.Problems(ie.Problems, ie.More))
	}
	return err.Error()
}
