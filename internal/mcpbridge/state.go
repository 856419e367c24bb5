package mcpbridge

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modkit/modkit/host"
)

// MaxStateBytes caps a requestState, as sent and as accepted.
const MaxStateBytes = 64 << 10

// DefaultStateTTL is how long a requestState stays valid by default.
const DefaultStateTTL = 10 * time.Minute

// StateKeySize is the size of a state key: AES-256.
const StateKeySize = 32

// stateAAD binds sealed states to their use and format.
var stateAAD = []byte("modkit requestState v1")

// states seals and opens request states: AES-256-GCM, so a client can
// neither read nor alter them, bound to the call's tool and input, and
// expiring. Every replica that shares the key opens the others' states.
type states struct {
	aead cipher.AEAD
	ttl  time.Duration
	now  func() time.Time // the clock states expire by
}

func newStates(key []byte, ttl time.Duration) (*states, error) {
	if key == nil {
		key = make([]byte, StateKeySize)
		rand.Read(key)
	}
	if len(key) != StateKeySize {
		return nil, fmt.Errorf("state key is %d bytes, want %d", len(key), StateKeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	if ttl <= 0 {
		ttl = DefaultStateTTL
	}
	return &states{aead: aead, ttl: ttl, now: time.Now}, nil
}

// sealedState is what a requestState carries.
type sealedState struct {
	// Owner is the principal whose call it is (creatorOf): "" without
	// authorization.
	Owner string `json:"own,omitempty"`
	Tool  string `json:"tool"`
	// Input is the hash of the call's input.
	Input    string          `json:"input"`
	Expires  int64           `json:"exp"`
	Answered []stateAnswer   `json:"answered,omitempty"`
	Pending  []stateQuestion `json:"pending"`
}

type stateQuestion struct {
	Kind     host.QuestionKind `json:"kind"`
	Key      string            `json:"key"`
	Position int               `json:"pos"`
	Params   json.RawMessage   `json:"params"`
}

type stateAnswer struct {
	Question stateQuestion   `json:"q"`
	Answer   json.RawMessage `json:"a"`
}

func toState(q host.Question) stateQuestion {
	return stateQuestion{Kind: q.Kind, Key: q.Key, Position: q.Position, Params: q.Params}
}

func (q stateQuestion) question() host.Question {
	return host.Question{Kind: q.Kind, Key: q.Key, Position: q.Position, Params: q.Params}
}

func (s *sealedState) answered() []host.Answered {
	out := make([]host.Answered, len(s.Answered))
	for i, a := range s.Answered {
		out[i] = host.Answered{Question: a.Question.question(), Answer: a.Answer}
	}
	return out
}

// inputHash identifies a call's input: its JSON value, whatever its
// spelling.
func inputHash(input []byte) string {
	var v any
	d := json.NewDecoder(bytes.NewReader(input))
	d.UseNumber()
	if len(bytes.TrimSpace(input)) == 0 || d.Decode(&v) != nil || v == nil {
		v = map[string]any{}
	}
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// seal returns the request state of owner's call of tool with input that
// asked pending, having the answers answered.
func (s *states) seal(owner, tool string, input []byte, answered []host.Answered, pending []host.Question) (string, error) {
	st := sealedState{Owner: owner, Tool: tool, Input: inputHash(input), Expires: s.now().Add(s.ttl).Unix()}
	for _, a := range answered {
		st.Answered = append(st.Answered, stateAnswer{Question: toState(a.Question), Answer: a.Answer})
	}
	for _, q := range pending {
		st.Pending = append(st.Pending, toState(q))
	}
	plain, err := json.Marshal(st)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	rand.Read(nonce)
	out := base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, plain, stateAAD))
	if len(out) > MaxStateBytes {
		return "", fmt.Errorf("the answers of this call need a request state of %d bytes, over the limit of %d", len(out), MaxStateBytes)
	}
	return out, nil
}

// Errors opening a request state.
var (
	errStateTampered = errors.New("was altered, or sealed by another server's key")
	errStateExpired  = errors.New("has expired: call the tool again from the start")
	errStateNotYours = errors.New("belongs to a call by another principal: a request state is its caller's alone")
)

// open returns the state a client sent back with owner's call of tool
// with input, refusing one over the size limit, altered or sealed by
// another key, expired, or of a call by another principal, of another
// tool or input.
func (s *states) open(owner, tool string, input []byte, token string) (*sealedState, error) {
	if len(token) > MaxStateBytes {
		return nil, fmt.Errorf("is %d bytes, over the limit of %d", len(token), MaxStateBytes)
	}
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return nil, errStateTampered
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], stateAAD)
	if err != nil {
		return nil, errStateTampered
	}
	var st sealedState
	if err := json.Unmarshal(plain, &st); err != nil {
		return nil, errStateTampered
	}
	switch {
	case st.Owner != owner:
		return nil, errStateNotYours
	case st.Tool != tool:
		was, is := boundTo(st.Tool), boundTo(tool)
		if strings.Fields(was)[0] == strings.Fields(is)[0] {
			is = strings.Fields(is)[1]
		}
		return nil, fmt.Errorf("belongs to a call of %s, not %s", was, is)
	case st.Input != inputHash(input):
		return nil, errors.New("belongs to a call with other arguments")
	case s.now().Unix() > st.Expires:
		return nil, errStateExpired
	}
	return &st, nil
}

// promptBinding is what a prompt's request state is bound to, in place of
// a tool's name: a tool's name has no space.
func promptBinding(id string) string { return "prompt " + id }

// boundTo names what a state is bound to: "tool NAME" or "prompt ID".
func boundTo(name string) string {
	if strings.HasPrefix(name, "prompt ") {
		return name
	}
	return "tool " + name
}
