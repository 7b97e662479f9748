package problems

// A Request is what the practice page asks the engine for, as JSON from
// its script to the practice module (site/live/practice).
type Request struct {
	// Op is "families", "generate" (Family and Seed), "resolve" (Code),
	// "grade" (Code and Answers), "interview" (Seed) or "summary" (Code,
	// an interview's, and Steps, the answers to its first steps, by part
	// name).
	Op      string              `json:"op"`
	Family  string              `json:"family,omitempty"`
	Seed    uint32              `json:"seed,omitempty"`
	Code    string              `json:"code,omitempty"`
	Answers map[string]string   `json:"answers,omitempty"`
	Steps   []map[string]string `json:"steps,omitempty"`
}

// A Response is the answer to a Request: what it asked for, or Error.
type Response struct {
	Families  []Family   `json:"families,omitempty"`
	Problem   *Problem   `json:"problem,omitempty"`
	Grade     *Graded    `json:"grade,omitempty"`
	Interview *Interview `json:"interview,omitempty"`
	Grades    []Graded   `json:"grades,omitempty"`
	Summary   *Summary   `json:"summary,omitempty"`
	Error     string     `json:"error,omitempty"`
}

// Serve answers a Request, as "warpbook practice" answers the terminal.
func Serve(req *Request) *Response {
	res := &Response{}
	var err error
	switch req.Op {
	case "families":
		res.Families = Families()
	case "generate":
		res.Problem, err = Generate(req.Family, req.Seed)
	case "resolve":
		res.Problem, err = Resolve(req.Code)
	case "grade":
		var p *Problem
		if p, err = Resolve(req.Code); err == nil {
			g := Grade(p, req.Answers)
			res.Grade = &g
		}
	case "interview":
		res.Interview, err = NewInterview(req.Seed)
	case "summary":
		var in *Interview
		if in, err = InterviewOf(req.Code); err == nil {
			for i, a := range req.Steps[:min(len(req.Steps), len(in.Steps))] {
				res.Grades = append(res.Grades, Grade(in.Steps[i].Problem, a))
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
