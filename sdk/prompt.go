package sdk

// PromptArgument is one declared argument of a slash command: the word a
// person types after "/ID", and the prompt argument an MCP client fills.
// Name and Description must be compile-time constants.
type PromptArgument struct {
	// Name identifies the argument: a letter, then letters, digits, '_'
	// or '-'.
	Name string
	// Description says what to give.
	Description string
	// Required arguments must be given; a required argument follows no
	// optional one.
	Required bool
}

// Role is who speaks a prompt message.
type Role string

// The roles of prompt messages.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// PromptMessage is one message of a prompt: one of Text, Image and
// Resource; with none it is an empty text.
type PromptMessage struct {
	// Role is RoleUser or RoleAssistant; empty means RoleUser.
	Role Role
	// Text is a text message.
	Text string
	// Image is an image message.
	Image *Image
	// Resource embeds a resource's contents, by its URI.
	Resource *EmbeddedResource
}

// Image is binary image data with its MIME type, like "image/png".
type Image struct {
	MIMEType string
	Data     []byte
}

// EmbeddedResource is a resource's contents carried in a message.
type EmbeddedResource struct {
	// URI names the resource.
	URI string
	ResourceContents
}

// UserText returns a user message of text.
func UserText(text string) PromptMessage { return PromptMessage{Role: RoleUser, Text: text} }

// CompletionRequest asks for values of one argument of a slash command or
// one variable of a resource template, as a person types it.
type CompletionRequest struct {
	// Argument names the argument or variable.
	Argument string
	// Value is what has been typed so far.
	Value string
	// Context holds the arguments or variables already chosen, by name.
	Context map[string]string
}

// Completion is a handler's suggestions: at most 100 values are passed on.
type Completion struct {
	// Values are the suggestions, best first.
	Values []string
	// Total is how many values there are in all, when known.
	Total int
	// HasMore says there are more values than Values holds.
	HasMore bool
}
