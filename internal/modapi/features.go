package modapi

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk"
)

// Features is implemented by mods that serve resources, prompts and
// completions. It is its own interface, beside Mod, so that a mod without
// it stays a Mod.
type Features interface {
	// ReadResource reads a resource, or a resource of a template.
	ReadResource(ctx context.Context, req *ResourceRequest) (*ResourceResponse, error)
	// GetPrompt returns a slash command's prompt messages.
	GetPrompt(ctx context.Context, req *PromptRequest) (*PromptResponse, error)
	// Complete suggests values for an argument or a template variable.
	Complete(ctx context.Context, req *CompleteRequest) (*CompleteResponse, error)
	// WatchResources calls updated with the URI of each resource the mod
	// says changed, until ctx ends; it returns ctx's error, or why it
	// could not watch.
	WatchResources(ctx context.Context, updated func(uri string)) error
}

// ResourceRequest asks the mod to read the resource at URI.
type ResourceRequest struct {
	URI string
	// Template is the URI template URI matched; empty for a resource.
	Template string
	Session  sdk.Session
	Today    string
	// MaxResultBytes caps the contents' size; 0 means no cap.
	MaxResultBytes int
	Run
}

// ResourceResponse is a resource's contents, or why there are none.
type ResourceResponse struct {
	// URI and Contents are the resource read.
	URI      string
	Contents sdk.ResourceContents
	// NotFound says the mod has no such resource.
	NotFound bool
	// Error says why the read failed.
	Error string
}

// PromptRequest asks the mod for a slash command's prompt.
type PromptRequest struct {
	ID        string
	Arguments map[string]string
	Session   sdk.Session
	Today     string
	// MaxResultBytes caps the messages' size; 0 means no cap.
	MaxResultBytes int
	Run
	// Answers and CanAsk are as in CallRequest: the handler asks as a
	// tool's does.
	Answers []Answered
	CanAsk  []QuestionKind
}

// PromptResponse is a prompt's messages, or why it failed, or the
// questions its handler asks.
type PromptResponse struct {
	Messages []sdk.PromptMessage
	Error    string
	// Questions and Unasked are as in Outcome.
	Questions []Question
	Unasked   []QuestionKind
}

// CompleteRequest asks for values of one argument of the slash command
// Prompt, or one variable of the resource template Template.
type CompleteRequest struct {
	Prompt, Template string
	sdk.CompletionRequest
	Session sdk.Session
	Today   string
	Run
}

// CompleteResponse is the suggestions, or why there are none.
type CompleteResponse struct {
	sdk.Completion
	Error string
}

// MaxCompletionValues is how many values a completion carries, as MCP
// allows.
const MaxCompletionValues = 100

// CapCompletion keeps at most MaxCompletionValues values of c, saying
// there are more when it drops some.
func CapCompletion(c sdk.Completion) sdk.Completion {
	if len(c.Values) > MaxCompletionValues {
		if c.Total < len(c.Values) {
			c.Total = len(c.Values)
		}
		c.Values = c.Values[:MaxCompletionValues]
		c.HasMore = true
	}
	return c
}

// ContentsSize is the size CapContents measures.
func ContentsSize(c sdk.ResourceContents) int { return len(c.Text) + len(c.Blob) + len(c.MIMEType) }

// PromptSize is the size of a prompt's messages: texts, images and
// embedded resources.
func PromptSize(msgs []sdk.PromptMessage) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Text)
		if m.Image != nil {
			n += len(m.Image.Data) + len(m.Image.MIMEType)
		}
		if m.Resource != nil {
			n += len(m.Resource.URI) + ContentsSize(m.Resource.ResourceContents)
		}
	}
	return n
}

// OverLimit is the failure of what (a resource, a prompt) whose result is
// size bytes, over max; "" when it fits or max is 0 or less.
func OverLimit(what string, size, max int) string {
	if max <= 0 || size <= max {
		return ""
	}
	return words.OverLimit(what, size, max)
}

// CheckMessages returns what is wrong with a prompt's messages, or "":
// each has one known role and at most one of text, image and resource (a
// message with none is an empty text).
func CheckMessages(what string, msgs []sdk.PromptMessage) string {
	for i, m := range msgs {
		switch m.Role {
		case "", sdk.RoleUser, sdk.RoleAssistant:
		default:
			return words.BadPromptMessage(what, i, words.MessageRole(string(m.Role), string(sdk.RoleUser), string(sdk.RoleAssistant)))
		}
		kinds := 0
		if m.Text != "" {
			kinds++
		}
		if m.Image != nil {
			kinds++
			if m.Image.MIMEType == "" {
				return words.BadPromptMessage(what, i, words.MessageImageNoMIME)
			}
		}
		if m.Resource != nil {
			kinds++
			if m.Resource.URI == "" {
				return words.BadPromptMessage(what, i, words.MessageResourceNoURI)
			}
			if m.Resource.Text != "" && len(m.Resource.Blob) > 0 {
				return words.BadPromptMessage(what, i, words.MessageResourceTextAndBlob)
			}
		}
		if kinds > 1 {
			return words.BadPromptMessage(what, i, words.MessageMixed)
		}
	}
	return ""
}

// SlashArgs splits the text a person typed after "/id" into the declared
// arguments: one word each, the last taking the rest of the line. It
// fails naming a required argument left out.
func SlashArgs(id string, names []string, required []bool, text string) (map[string]string, error) {
	args := map[string]string{}
	rest := SlashText(text)
	for i, name := range names {
		if rest == "" {
			if required[i] {
				return nil, errors.New(words.SlashArgMissing(id, name, usage(names, required)))
			}
			continue
		}
		if i == len(names)-1 {
			args[name] = rest
			break
		}
		word, after, _ := strings.Cut(rest, " ")
		args[name] = word
		rest = strings.TrimSpace(after)
	}
	return args, nil
}

// usage is how a person types the arguments: <required> [optional].
func usage(names []string, required []bool) string {
	parts := make([]string, len(names))
	for i, n := range names {
		if required[i] {
			parts[i] = "<" + n + ">"
		} else {
			parts[i] = "[" + n + "]"
		}
	}
	return strings.Join(parts, " ")
}

// JoinArgs is the text a slash command's Run receives for prompt
// arguments: their values in declared order, joined by spaces.
func JoinArgs(names []string, args map[string]string) string {
	var parts []string
	for _, n := range names {
		if v := strings.TrimSpace(args[n]); v != "" {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, " ")
}

// PromptText is what a person reads of a prompt run as a slash command:
// its text messages, and a line for each image and resource, separated by
// blank lines.
func PromptText(msgs []sdk.PromptMessage) string {
	var parts []string
	for _, m := range msgs {
		switch {
		case m.Text != "":
			parts = append(parts, m.Text)
		case m.Image != nil:
			parts = append(parts, fmt.Sprintf("[image, %s, %d bytes]", m.Image.MIMEType, len(m.Image.Data)))
		case m.Resource != nil:
			if m.Resource.Text != "" {
				parts = append(parts, m.Resource.Text)
			} else {
				parts = append(parts, fmt.Sprintf("[resource %s, %d bytes]", m.Resource.URI, len(m.Resource.Blob)))
			}
		}
	}
	return strings.Join(parts, "\n\n")
}
