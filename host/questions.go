package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/modkit/modkit/internal/answercheck"
	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk"
)

// StatusAsking is the outcome of a call whose Asker answered ErrAskLater:
// CallResult.Questions are to be answered, and the call made again with
// CallResult.Answered and their answers in CallRequest.Answers.
const StatusAsking = modapi.StatusAsking

// QuestionKind is what a question asks for.
type QuestionKind = modapi.QuestionKind

// The kinds of question a tool can ask mid-call.
const (
	// AskForm asks a person to fill a form; an approval question is a form
	// with no fields.
	AskForm = modapi.AskForm
	// AskURL asks a person to visit a URL.
	AskURL = modapi.AskURL
	// AskSample asks the client's model for a message.
	AskSample = modapi.AskSample
	// AskRoots asks the client for its roots.
	AskRoots = modapi.AskRoots
)

// ApprovalKey is the key of the approval question the host asks through
// an Asker before a call that needs a person's approval.
const ApprovalKey = "modkit/approval"

// Question is a question a call asks: the tool's handler (through
// sdk.ToolContext.Ask, AskURL, Sample or Roots) or the host (approval).
type Question struct {
	Kind QuestionKind
	// Key names the question among the call's; Position is its place
	// among them, from 0.
	Key      string
	Position int
	// Tool is the tool's name (a prompt's question: the slash command's
	// id); Title its name for people, if any.
	Tool, Title string
	// CallID and Label are as in CallResult.
	CallID, Label string
	// Session is the calling session; Agent the calling agent, if any.
	Session sdk.Session
	Agent   string
	// Message is what a person reads (form and URL questions).
	Message string
	// Schema is a form's requested schema: an object of primitive
	// properties.
	Schema json.RawMessage
	// URL is what a URL question asks the person to visit.
	URL string
	// Params are the question as JSON, shaped as the params of the MCP
	// request that asks it (elicitation/create, sampling/createMessage,
	// roots/list).
	Params json.RawMessage
	// Approval is set on the host's approval question: a form with no
	// fields; accept runs the call, decline denies it, cancel dismisses it.
	Approval bool
	// Refusal says why the last answer to this question was refused, when
	// it is asked again: a form's answer that broke its schema.
	Refusal string
}

// Asker puts a call's questions to a person, the client's model or the
// client, in the embedding application. The host calls it from the
// call's goroutine, with the call's context, one question at a time; the
// wait counts toward no timeout.
type Asker interface {
	// CanAsk reports whether questions of kind can be asked; the tool's
	// handler reads the others as "could not be asked".
	CanAsk(kind QuestionKind) bool
	// Ask returns the answer to q, as JSON shaped as the MCP result:
	// {"action":"accept","content":{…}} (or "decline", "cancel") for a
	// form or a URL (FormAnswer writes it), a CreateMessageResult for a
	// sample, a ListRootsResult for roots. ErrAskLater ends the call
	// StatusAsking. An error wrapping sdk.ErrCannotAsk says that nobody
	// can answer q after all (modhost call without a terminal): the
	// handler runs again and its question of q's kind, and every later
	// one of that kind, returns sdk.ErrCannotAsk, as if CanAsk had said
	// no. Any other error fails the call ("… could not be asked: …").
	Ask(ctx context.Context, q *Question) (json.RawMessage, error)
}

// ErrAskLater is what an Asker returns when the question goes back to
// the caller, to be answered on a later request (MCP 2026-07-28's
// input_required): the call ends StatusAsking with every question the
// handler asked together.
var ErrAskLater = callflow.ErrAskLater

// Answered is a question with its answer.
type Answered struct {
	Question Question
	Answer   json.RawMessage
}

// FormAnswer is the answer to a form or a URL question: action is
// "accept", "decline" or "cancel"; values are an accepted form's fields.
func FormAnswer(action string, values map[string]any) json.RawMessage {
	b, _ := json.Marshal(struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content,omitempty"`
	}{action, values})
	return b
}

// canAsk are the kinds req's asker can put.
func (req *CallRequest) canAsk() []modapi.QuestionKind {
	if req.Asker == nil {
		return nil
	}
	var kinds []modapi.QuestionKind
	for _, k := range modapi.Kinds {
		if req.Asker.CanAsk(k) {
			kinds = append(kinds, k)
		}
	}
	return kinds
}

// questioning is the state of one call's questions.
type questioning struct {
	req *CallRequest
	res *CallResult
	t   *tool
	// given are the answers the request came with, not used yet, by
	// position.
	given []Answered
	// offset is the position of the handler's first question: 1 after
	// the host's approval question.
	offset int
	// cannot are the kinds the asker found it cannot put after all.
	cannot []modapi.QuestionKind
}

// canAsk are the kinds the handler may ask now: what the asker said it
// can put, but those it could not.
func (qs *questioning) canAsk() []modapi.QuestionKind {
	return slices.DeleteFunc(qs.req.canAsk(), func(k modapi.QuestionKind) bool { return slices.Contains(qs.cannot, k) })
}

func (h *Host) newQuestioning(req *CallRequest, res *CallResult, t *tool) *questioning {
	return &questioning{req: req, res: res, t: t, given: req.Answers}
}

// hostQuestion turns a question the handler asked into the host's.
func (qs *questioning) hostQuestion(q modapi.Question) *Question {
	hq := &Question{
		Kind: q.Kind, Key: q.Key, Position: q.Position + qs.offset,
		Tool: qs.req.Tool, Title: qs.t.man.Title, CallID: qs.res.CallID, Label: qs.req.Label,
		Session: qs.req.Session, Agent: qs.req.Agent, Params: q.Params,
	}
	hq.Message, hq.Schema, hq.URL = callflow.Shown(q.Params)
	return hq
}

// answer answers q: from the request's answers when one was given for q's
// position and question and fits it, else from the asker. A refused
// answer is asked again, up to three times.
func (qs *questioning) answer(ctx context.Context, q *Question) (json.RawMessage, error) {
	if q.Position < len(qs.given) {
		g := qs.given[q.Position]
		if g.Question.Kind == q.Kind && g.Question.Key == q.Key &&
			(modapi.Question{Kind: q.Kind, Params: g.Question.Params}).Same(modapi.Question{Kind: q.Kind, Params: q.Params}) {
			problems := checkAnswer(q, g.Answer)
			if len(problems) == 0 {
				return g.Answer, nil
			}
			q.Refusal = words.BadAnswer(problems)
		}
		// Answers after a question asked anew belong to other questions.
		qs.given = qs.given[:q.Position]
	}
	if qs.req.Asker == nil || !qs.req.Asker.CanAsk(q.Kind) {
		return nil, errors.New(modapi.CannotAsk(q.Kind))
	}
	for range 3 {
		a, err := qs.req.Asker.Ask(ctx, q)
		if err != nil {
			return nil, err
		}
		problems := checkAnswer(q, a)
		if len(problems) == 0 {
			return a, nil
		}
		q.Refusal = words.BadAnswer(problems)
	}
	return nil, &refusedThrice{q.Refusal}
}

// refusedThrice is answer's error when each of three answers was refused.
type refusedThrice struct{ refusal string }

func (e *refusedThrice) Error() string { return e.refusal }

// checkAnswer returns what is wrong with answer a to q, in the words the
// host uses for a tool's input.
func checkAnswer(q *Question, a json.RawMessage) []string {
	if len(q.Schema) > 0 && q.Kind == AskForm {
		return answercheck.Check(q.Kind, q.Key, q.Schema, a)
	}
	return answercheck.Check(q.Kind, q.Key, answercheck.FormSchema(q.Params), a)
}

// modAnswers are the answers given for the handler's questions, as the
// mod is given them: up to the first that does not fit its question
// (asked again, with the refusal, when the handler asks it).
func (qs *questioning) modAnswers() []modapi.Answered {
	var out []modapi.Answered
	for i := qs.offset; i < len(qs.given); i++ {
		g := qs.given[i]
		if g.Question.Position != i || len(checkAnswer(&g.Question, g.Answer)) > 0 {
			break
		}
		out = append(out, modapi.Answered{
			Question: modapi.Question{Kind: g.Question.Kind, Key: g.Question.Key, Params: g.Question.Params, Position: i - qs.offset},
			Answer:   g.Answer,
		})
		qs.res.Answered = append(qs.res.Answered, g)
	}
	return out
}

// approvalQuestion is the host's question whether a call may run.
func (qs *questioning) approvalQuestion(question string) *Question {
	schema := json.RawMessage(`{"type":"object","properties":{}}`)
	params, _ := json.Marshal(struct {
		Mode            string          `json:"mode"`
		Message         string          `json:"message"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}{"form", question, schema})
	return &Question{
		Kind: AskForm, Key: ApprovalKey, Tool: qs.req.Tool, Title: qs.t.man.Title,
		CallID: qs.res.CallID, Label: qs.req.Label, Session: qs.req.Session, Agent: qs.req.Agent,
		Message: question, Schema: schema, Params: params, Approval: true,
	}
}

// approve asks the approval question through the asker and returns the
// person's action: "accept", "decline" or "cancel".
func (qs *questioning) approve(ctx context.Context, question string) (string, error) {
	q := qs.approvalQuestion(question)
	a, err := qs.answer(ctx, q)
	if err != nil {
		if errors.Is(err, ErrAskLater) {
			qs.res.Questions = []Question{*q}
		}
		return "", err
	}
	var ans struct {
		Action string `json:"action"`
	}
	json.Unmarshal(a, &ans)
	qs.res.Answered = []Answered{{Question: *q, Answer: a}}
	qs.offset = 1
	return ans.Action, nil
}

// ask answers the questions a run of the handler asked together, and
// returns the answers the next run is given, or the call's ending when it
// ends here: asking (the asker answers later), failed or cancelled.
func (qs *questioning) ask(ctx context.Context, given []modapi.Answered, asked []modapi.Question) ([]modapi.Answered, callflow.Ending, bool) {
	var later []Question
	var end *callflow.Ending
	next, _, err := callflow.Answer(qs.req.Tool, qs.offset, given, asked, func(mq modapi.Question) (json.RawMessage, bool, error) {
		hq := qs.hostQuestion(mq)
		a, err := qs.answer(ctx, hq)
		switch {
		case ctx.Err() != nil:
			e := callflow.Cancelled(nil)
			end = &e
			return nil, false, errQuestionsEnded
		case errors.Is(err, ErrAskLater):
			later = append(later, *hq)
			return nil, true, nil
		case errors.Is(err, sdk.ErrCannotAsk) && !slices.Contains(qs.cannot, hq.Kind):
			// The handler runs again, and reads that it cannot ask.
			qs.cannot = append(qs.cannot, hq.Kind)
			return nil, false, errCannotPut
		case err != nil:
			msg := fmt.Sprintf("question %s of tool %s could not be asked: %v", hq.Key, qs.req.Tool, err)
			var refused *refusedThrice
			if errors.As(err, &refused) {
				msg = words.RefusedThrice(hq.Key, qs.req.Tool, refused.refusal)
			}
			e := callflow.Failed(msg, nil)
			end = &e
			return nil, false, errQuestionsEnded
		}
		qs.res.Answered = append(qs.res.Answered[:min(len(qs.res.Answered), hq.Position)], Answered{Question: *hq, Answer: a})
		return a, false, nil
	})
	switch {
	case end != nil:
		return nil, *end, true
	case errors.Is(err, errCannotPut):
		return given, callflow.Ending{}, false
	case err != nil:
		return nil, callflow.Failed(err.Error(), nil), true
	case later != nil:
		qs.res.Questions = later
		return nil, callflow.Ending{Status: callflow.StatusAsking}, true
	}
	return next, callflow.Ending{}, false
}

// errQuestionsEnded stops the answering of a call's questions, whose
// ending is set.
var errQuestionsEnded = errors.New("the call ended while its questions were answered")

// errCannotPut stops the answering of a run's questions when one could
// not be put: the handler runs again without its kind.
var errCannotPut = errors.New("a question could not be put")

// asking ends the call asking qs; ran says whether the handler ran, whose
// activity then ended.
func (r *CallResult) asking(qs []Question, ran bool) *CallResult {
	r.Status = StatusAsking
	r.Questions = qs
	r.Error = ""
	r.Text = ""
	if ran {
		r.Activity.Ended = true
	}
	return r
}
