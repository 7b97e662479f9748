package live

import (
	"github.com/warpbook/warpbook/site/problems"
)

// PracticeRequest asks the kernel for generated problems (package
// problems) on the practice page: the page's script sends it with op
// "practice".
type PracticeRequest struct {
	// Op is "families", "generate" (Family and Seed), "resolve" (Code),
	// "grade" (Code and Answers), "interview" (Seed) or "summary" (Code,
	// an interview's, and Steps, the answers to its first steps).
	Op      string              `json:"op"`
	Family  string              `json:"family,omitempty"`
	Seed    uint32              `json:"seed,omitempty"`
	Code    string              `json:"code,omitempty"`
	Answers map[string]string   `json:"answers,omitempty"`
	Steps   []map[string]string `json:"steps,omitempty"`
}

// PracticeResult is the answer to a PracticeRequest: what it asked for, or
// Error.
type PracticeResult struct {
	Families  []problems.Family   `json:"families,omitempty"`
	Problem   *problems.Problem   `json:"problem,omitempty"`
	Grade     *problems.Graded    `json:"grade,omitempty"`
	Interview *problems.Interview `json:"interview,omitempty"`
	Grades    []problems.Graded   `json:"grades,omitempty"`
	Summary   *problems.Summary   `json:"summary,omitempty"`
	Error     string              `json:"error,omitempty"`
}

// Practice answers a PracticeRequest with package problems, as "warpbook
// practice" does in the terminal.
func Practice(req *PracticeRequest) *PracticeResult {
	res := &PracticeResult{}
	var err error
	switch req.Op {
	case "families":
		res.Families = problems.Families()
	case "generate":
		res.Problem, err = problems.Generate(req.Family, req.Seed)
	case "resolve":
		res.Problem, err = problems.Resolve(req.Code)
	case "grade":
		var p *problems.Problem
		if p, err = problems.Resolve(req.Code); err == nil {
			g := problems.Grade(p, req.Answers)
			res.Grade = &g
		}
	case "interview":
		res.Interview, err = problems.NewInterview(req.Seed)
	case "summary":
		var in *problems.Interview
		if in, err = problems.InterviewOf(req.Code); err == nil {
			for i, a := range req.Steps {
				if i >= len(in.Steps) {
					break
				}
				res.Grades = append(res.Grades, problems.Grade(in.Steps[i].Problem, a))
			}
			s := in.Summarize(res.Grades)
			res.Summary = &s
		}
	default:
		res.Error = "unknown practice request " + req.Op
	}
	if err != nil {
		res.Error = err.Error()
	}
	return res
}
