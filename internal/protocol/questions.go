package protocol

import (
	"encoding/json"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
)

func questionToProto(q *modapi.Question) *pb.Question {
	if q == nil {
		return nil
	}
	return &pb.Question{Kind: string(q.Kind), Key: q.Key, Params: q.Params, Position: int32(q.Position)}
}

func questionFromProto(q *pb.Question) *modapi.Question {
	if q == nil {
		return nil
	}
	return &modapi.Question{Kind: modapi.QuestionKind(q.GetKind()), Key: q.GetKey(), Params: json.RawMessage(q.GetParams()), Position: int(q.GetPosition())}
}

func answersToProto(as []modapi.Answered) []*pb.AnsweredQuestion {
	if len(as) == 0 {
		return nil
	}
	out := make([]*pb.AnsweredQuestion, len(as))
	for i, a := range as {
		out[i] = &pb.AnsweredQuestion{Question: questionToProto(&a.Question), Answer: a.Answer}
	}
	return out
}

func answersFromProto(as []*pb.AnsweredQuestion) []modapi.Answered {
	if len(as) == 0 {
		return nil
	}
	out := make([]modapi.Answered, len(as))
	for i, a := range as {
		if q := questionFromProto(a.GetQuestion()); q != nil {
			out[i].Question = *q
		}
		out[i].Answer = json.RawMessage(a.GetAnswer())
	}
	return out
}

func kindsToProto(ks []modapi.QuestionKind) []string {
	if len(ks) == 0 {
		return nil
	}
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = string(k)
	}
	return out
}

func kindsFromProto(ks []string) []modapi.QuestionKind {
	if len(ks) == 0 {
		return nil
	}
	out := make([]modapi.QuestionKind, len(ks))
	for i, k := range ks {
		out[i] = modapi.QuestionKind(k)
	}
	return out
}

func questionsToProto(qs []modapi.Question) []*pb.Question {
	out := make([]*pb.Question, len(qs))
	for i := range qs {
		out[i] = questionToProto(&qs[i])
	}
	return out
}

func questionsFromProto(qs []*pb.Question) []modapi.Question {
	out := make([]modapi.Question, 0, len(qs))
	for _, q := range qs {
		if q != nil {
			out = append(out, *questionFromProto(q))
		}
	}
	return out
}
