package sdk

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/modkit/modkit/internal/sdkrt"
)

// Form asks a person to fill a few fields (MCP form elicitation). A form
// with no fields asks for a yes (accept) or a no (decline).
type Form struct {
	// Key names the question among the call's, as MCP clients see it:
	// letters, digits, "_", "-", "." and "/". Default "q<n>", n its place
	// among the call's questions.
	Key string
	// Message is what the person reads: what is asked and why.
	Message string
	// Fields are the form's fields, in the order shown.
	Fields []Field
}

// FieldType is the type of a form field's value.
type FieldType string

// The types of a form field.
const (
	FieldString  FieldType = "string"
	FieldNumber  FieldType = "number"
	FieldInteger FieldType = "integer"
	FieldBoolean FieldType = "boolean"
)

// Field is one field of a Form: a primitive value, or a choice among
// Options.
type Field struct {
	// Name is the field's key in Answer.Values.
	Name string
	// Title and Description are what the person reads.
	Title, Description string
	// Type is the value's type; default string.
	Type FieldType
	// Required fields must be filled to accept the form.
	Required bool
	// Default is the value shown first: a string, number or bool of the
	// field's type, or, for a multiple choice, a []string.
	Default any
	// Options make the field a choice: the person picks one value (or
	// several, with Multiple). Options with titles are shown by title.
	Options []Option
	// Multiple lets the person pick several options.
	Multiple bool
	// LegacyTitles writes a titled single choice as "enum" with
	// "enumNames", for clients of the deprecated form.
	LegacyTitles bool
	// Format constrains a string: "email", "uri", "date" or "date-time".
	Format string
	// MinLength and MaxLength bound a string's length; 0 means no bound.
	MinLength, MaxLength int
	// Minimum and Maximum bound a number; nil means no bound.
	Minimum, Maximum *float64
}

// Option is one choice of a field.
type Option struct {
	Value, Title string
}

// URLQuestion sends a person to a URL, out of band (MCP URL elicitation):
// a sign-in or a payment the client must not see.
type URLQuestion struct {
	// Key is as in Form.
	Key string
	// Message says why the person should visit URL.
	Message, URL string
}

// SampleRequest asks the client's model for a message (MCP sampling).
type SampleRequest struct {
	// Key is as in Form.
	Key string
	// Messages are the conversation so far, in order.
	Messages []Message
	// SystemPrompt is a system prompt the client may use.
	SystemPrompt string
	// MaxTokens caps the reply; default 1000.
	MaxTokens int
}

// Message is a text message of a sampling conversation; Role is "user"
// or "assistant".
type Message struct {
	Role, Text string
}

// Sampled is the model's reply to a SampleRequest.
type Sampled struct {
	// Text is the reply, when it is text.
	Text string
	// Model names the model that replied; StopReason says why it stopped.
	Model, StopReason string
}

// RootsQuestion asks the client for its roots; ToolContext.Roots puts it.
type RootsQuestion struct {
	// Key is as in Form.
	Key string
}

// Root is a directory or file the client lets servers work on.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// validKey reports whether key is 1 to 64 of the letters, digits, '_',
// '.', '/' and '-': `^[A-Za-z0-9_./-]{1,64}$`, checked by hand, since a
// package-level regexp with that repeat cost every mod process about a
// millisecond of its start to compile.
func validKey(key string) bool {
	if len(key) < 1 || len(key) > 64 {
		return false
	}
	for i := 0; i < len(key); i++ {
		switch c := key[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '.', c == '/', c == '-':
		default:
			return false
		}
	}
	return true
}

func checkKey(key string) error {
	if key != "" && !validKey(key) {
		return fmt.Errorf("question key %q: use 1 to 64 letters, digits, '_', '-', '.' or '/'", key)
	}
	return nil
}

func (f Form) wire() (sdkrt.Question, error) {
	if err := checkKey(f.Key); err != nil {
		return sdkrt.Question{}, err
	}
	schema, err := f.schema()
	if err != nil {
		return sdkrt.Question{}, err
	}
	params, err := json.Marshal(struct {
		Mode            string          `json:"mode"`
		Message         string          `json:"message"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}{"form", f.Message, schema})
	return sdkrt.Question{Kind: "form", Key: f.Key, Params: params}, err
}

// schema is the form's requested schema, its properties in field order.
func (f Form) schema() (json.RawMessage, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	seen := map[string]bool{}
	for i, fd := range f.Fields {
		if fd.Name == "" {
			return nil, fmt.Errorf("form field %d has no name", i+1)
		}
		if seen[fd.Name] {
			return nil, fmt.Errorf("form field %q appears twice", fd.Name)
		}
		seen[fd.Name] = true
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(fd.Name)
		b.Write(name)
		b.WriteByte(':')
		prop, err := fd.schema()
		if err != nil {
			return nil, fmt.Errorf("form field %q: %w", fd.Name, err)
		}
		b.Write(prop)
		if fd.Required {
			required = append(required, fd.Name)
		}
	}
	b.WriteByte('}')
	if len(required) > 0 {
		r, _ := json.Marshal(required)
		b.WriteString(`,"required":`)
		b.Write(r)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// fieldSchema is a field's schema, its keys in a fixed order.
type fieldSchema struct {
	Type        FieldType   `json:"type"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description,omitempty"`
	Enum        []string    `json:"enum,omitempty"`
	EnumNames   []string    `json:"enumNames,omitempty"`
	OneOf       []constItem `json:"oneOf,omitempty"`
	Items       *itemSchema `json:"items,omitempty"`
	Format      string      `json:"format,omitempty"`
	MinLength   int         `json:"minLength,omitempty"`
	MaxLength   int         `json:"maxLength,omitempty"`
	Minimum     *float64    `json:"minimum,omitempty"`
	Maximum     *float64    `json:"maximum,omitempty"`
	Default     any         `json:"default,omitempty"`
}

type itemSchema struct {
	Type  string      `json:"type,omitempty"`
	Enum  []string    `json:"enum,omitempty"`
	AnyOf []constItem `json:"anyOf,omitempty"`
}

type constItem struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

func (fd Field) schema() ([]byte, error) {
	s := fieldSchema{Type: fd.Type, Title: fd.Title, Description: fd.Description, Default: fd.Default,
		Format: fd.Format, MinLength: fd.MinLength, MaxLength: fd.MaxLength, Minimum: fd.Minimum, Maximum: fd.Maximum}
	if s.Type == "" {
		s.Type = FieldString
	}
	switch s.Type {
	case FieldString, FieldNumber, FieldInteger, FieldBoolean:
	default:
		return nil, fmt.Errorf("type %q is not string, number, integer or boolean", s.Type)
	}
	if len(fd.Options) == 0 {
		if fd.Multiple {
			return nil, fmt.Errorf("a multiple choice needs options")
		}
		return json.Marshal(s)
	}
	if s.Type != FieldString {
		return nil, fmt.Errorf("a choice's options are strings: use type string")
	}
	values, titles, titled := make([]string, len(fd.Options)), make([]string, len(fd.Options)), false
	items := make([]constItem, len(fd.Options))
	for i, o := range fd.Options {
		values[i], titles[i] = o.Value, o.Title
		if o.Title != "" {
			titled = true
		} else {
			titles[i] = o.Value
		}
		items[i] = constItem{Const: o.Value, Title: titles[i]}
	}
	switch {
	case fd.Multiple && titled:
		s.Type, s.Items = "array", &itemSchema{AnyOf: items}
	case fd.Multiple:
		s.Type, s.Items = "array", &itemSchema{Type: "string", Enum: values}
	case titled && fd.LegacyTitles:
		s.Enum, s.EnumNames = values, titles
	case titled:
		s.OneOf = items
	default:
		s.Enum = values
	}
	return json.Marshal(s)
}

func (q URLQuestion) wire() (sdkrt.Question, error) {
	if err := checkKey(q.Key); err != nil {
		return sdkrt.Question{}, err
	}
	if q.URL == "" {
		return sdkrt.Question{}, fmt.Errorf("URL question has no URL")
	}
	params, err := json.Marshal(struct {
		Mode    string `json:"mode"`
		Message string `json:"message"`
		URL     string `json:"url"`
	}{"url", q.Message, q.URL})
	return sdkrt.Question{Kind: "url", Key: q.Key, Params: params}, err
}

type samplingContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type samplingMessage struct {
	Role    string          `json:"role"`
	Content samplingContent `json:"content"`
}

func (r SampleRequest) wire() (sdkrt.Question, error) {
	if err := checkKey(r.Key); err != nil {
		return sdkrt.Question{}, err
	}
	if len(r.Messages) == 0 {
		return sdkrt.Question{}, fmt.Errorf("sample request has no messages")
	}
	msgs := make([]samplingMessage, len(r.Messages))
	for i, m := range r.Messages {
		role := m.Role
		if role == "" {
			role = "user"
		}
		if role != "user" && role != "assistant" {
			return sdkrt.Question{}, fmt.Errorf("sample request message %d: role %q is not user or assistant", i+1, m.Role)
		}
		msgs[i] = samplingMessage{Role: role, Content: samplingContent{Type: "text", Text: m.Text}}
	}
	max := r.MaxTokens
	if max <= 0 {
		max = 1000
	}
	params, err := json.Marshal(struct {
		Messages     []samplingMessage `json:"messages"`
		SystemPrompt string            `json:"systemPrompt,omitempty"`
		MaxTokens    int               `json:"maxTokens"`
	}{msgs, r.SystemPrompt, max})
	return sdkrt.Question{Kind: "sample", Key: r.Key, Params: params}, err
}

// sampledWire is a sampling result as MCP carries it.
type sampledWire struct {
	Content    json.RawMessage `json:"content"`
	Model      string          `json:"model"`
	StopReason string          `json:"stopReason"`
}

func (s sampledWire) sampled() Sampled {
	out := Sampled{Model: s.Model, StopReason: s.StopReason}
	var one samplingContent
	if json.Unmarshal(s.Content, &one) == nil {
		out.Text = one.Text
		return out
	}
	var many []samplingContent
	if json.Unmarshal(s.Content, &many) == nil {
		for _, c := range many {
			if c.Type == "text" {
				out.Text += c.Text
			}
		}
	}
	return out
}

func (q RootsQuestion) wire() (sdkrt.Question, error) {
	if err := checkKey(q.Key); err != nil {
		return sdkrt.Question{}, err
	}
	return sdkrt.Question{Kind: "roots", Key: q.Key, Params: []byte(`{}`)}, nil
}
