// Command oracle answers differential-fuzzing cases with what the Go libraries CAPI builds on do. It reads one JSON
// case a line on stdin and writes one JSON answer a line on stdout, in order:
//
//	{"family":"template","template":"...","variables":{"name":<raw JSON>}}
//	{"family":"patch","doc":<JSON>,"patch":<JSON>}
//	{"family":"schema","schema":<OpenAPI v3 schema>,"value":<JSON>}
//
// The template family is CAPI's renderValueTemplate (text/template + sprig's hermetic functions, then
// sigs.k8s.io/yaml read-back); the patch family is evanphx/json-patch's DecodePatch + Apply with default options;
// the schema family is kube-openapi's SchemaValidator with the formats Kubernetes keeps.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"text/template"

	sprig "github.com/Masterminds/sprig/v3"
	jsonpatch "github.com/evanphx/json-patch/v5"
	"k8s.io/kube-openapi/pkg/validation/errors"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"
	"sigs.k8s.io/yaml"
)

type request struct {
	Family    string                     `json:"family"`
	Template  string                     `json:"template"`
	Variables map[string]json.RawMessage `json:"variables"`
	Doc       json.RawMessage            `json:"doc"`
	Patch     json.RawMessage            `json:"patch"`
	Schema    json.RawMessage            `json:"schema"`
	Value     json.RawMessage            `json:"value"`
}

// schemaError is one kube-openapi error: a validation error carries its code, field name and value, as
// kubeOpenAPIResultToFieldErrors reads them; anything else is its message alone.
type schemaError struct {
	Code    *int32        `json:"code,omitempty"`
	Name    string        `json:"name,omitempty"`
	Value   interface{}   `json:"value,omitempty"`
	Values  []interface{} `json:"values,omitempty"`
	Message string        `json:"message"`
}

type answer struct {
	OK bool `json:"ok"`
	// Stage is where a failure happened: parse, data, execute, yaml (template); decode, apply (patch); input.
	Stage  string          `json:"stage,omitempty"`
	Error  string          `json:"error,omitempty"`
	Output *string         `json:"output,omitempty"`
	Value  json.RawMessage `json:"value,omitempty"`
	Null   bool            `json:"null,omitempty"`
	Errors []schemaError   `json:"errors,omitempty"`
	Panic  string          `json:"panic,omitempty"`
}

// rawJSON keeps what sigs.k8s.io/yaml hands to encoding/json, as apiextensionsv1.JSON does (null stays empty).
type rawJSON struct{ Raw []byte }

func (r *rawJSON) UnmarshalJSON(in []byte) error {
	if len(in) > 0 && !bytes.Equal(in, []byte("null")) {
		r.Raw = append(r.Raw[0:0], in...)
	}
	return nil
}

func fail(stage string, err error) answer { return answer{Stage: stage, Error: err.Error()} }

func renderTemplate(r request) answer {
	tpl, err := template.New("tpl").Funcs(sprig.HermeticTxtFuncMap()).Parse(r.Template)
	if err != nil {
		return fail("parse", err)
	}
	vars := r.Variables
	if vars == nil {
		vars = map[string]json.RawMessage{}
	}
	tmp, err := json.Marshal(vars)
	if err != nil {
		return fail("data", err)
	}
	data := map[string]interface{}{}
	if err := json.Unmarshal(tmp, &data); err != nil {
		return fail("data", err)
	}
	var buf bytes.Buffer
	if err := tpl.Execute(&buf, data); err != nil {
		return fail("execute", err)
	}
	out := buf.String()
	value := rawJSON{}
	if err := yaml.Unmarshal(buf.Bytes(), &value); err != nil {
		a := fail("yaml", err)
		a.Output = &out
		return a
	}
	a := answer{OK: true, Output: &out}
	if value.Raw == nil {
		a.Null = true
	} else {
		a.Value = value.Raw
	}
	return a
}

func applyPatch(r request) answer {
	patch, err := jsonpatch.DecodePatch(r.Patch)
	if err != nil {
		return fail("decode", err)
	}
	out, err := patch.Apply(r.Doc)
	if err != nil {
		return fail("apply", err)
	}
	return answer{OK: true, Value: out}
}

// registry is kube-openapi's default format registry. Debian's kube-openapi (2021) registers exactly the formats
// Kubernetes validates before 1.33 (no k8s-short-name / k8s-long-name), so the driver generates only those.
var registry = strfmt.NewFormats()

// decodeNumbers decodes JSON as k8s.io/apimachinery/pkg/util/json does (the API server, and CAPI for variable
// values): a number that is an int64 stays an integer, any other is a float64.
func decodeNumbers(raw []byte) (interface{}, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return convertNumbers(v)
}

func convertNumbers(v interface{}) (interface{}, error) {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, nil
		}
		return x.Float64()
	case []interface{}:
		for i := range x {
			c, err := convertNumbers(x[i])
			if err != nil {
				return nil, err
			}
			x[i] = c
		}
	case map[string]interface{}:
		for k := range x {
			c, err := convertNumbers(x[k])
			if err != nil {
				return nil, err
			}
			x[k] = c
		}
	}
	return v, nil
}

// asAPIServer makes a schema decoded by kube-openapi what apiextensions-apiserver (not packaged by Debian) hands to
// the validator: enum entries decoded with k8s.io/apimachinery/pkg/util/json (an integral entry is an int64), and
// formats the API server does not support stripped (StripUnsupportedFormatsPostProcessorForVersion: a string format
// the registry lacks, an integer format but int32/int64, a number format but float/double, any format on another type).
func asAPIServer(s *spec.Schema) error {
	if s == nil {
		return nil
	}
	if s.Format != "" {
		typ := ""
		if len(s.Type) == 1 {
			typ = s.Type[0]
		}
		keep := false
		switch typ {
		case "", "string":
			keep = registry.ContainsName(s.Format)
		case "integer":
			keep = s.Format == "int32" || s.Format == "int64"
		case "number":
			keep = s.Format == "float" || s.Format == "double"
		}
		if !keep {
			s.Format = ""
		}
	}
	for i, e := range s.Enum {
		raw, err := json.Marshal(e)
		if err != nil {
			return err
		}
		if s.Enum[i], err = decodeNumbers(raw); err != nil {
			return err
		}
	}
	children := []*spec.Schema{s.Not}
	for _, list := range [][]spec.Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			children = append(children, &list[i])
		}
	}
	for k := range s.Properties {
		p := s.Properties[k]
		if err := asAPIServer(&p); err != nil {
			return err
		}
		s.Properties[k] = p
	}
	if s.Items != nil {
		children = append(children, s.Items.Schema)
		for i := range s.Items.Schemas {
			children = append(children, &s.Items.Schemas[i])
		}
	}
	if s.AdditionalProperties != nil {
		children = append(children, s.AdditionalProperties.Schema)
	}
	for _, c := range children {
		if err := asAPIServer(c); err != nil {
			return err
		}
	}
	return nil
}

func validateSchema(r request) answer {
	s := &spec.Schema{}
	if err := json.Unmarshal(r.Schema, s); err != nil {
		return fail("input", err)
	}
	if err := asAPIServer(s); err != nil {
		return fail("input", err)
	}
	value, err := decodeNumbers(r.Value)
	if err != nil {
		return fail("input", err)
	}
	res := validate.NewSchemaValidator(s, nil, "", registry).Validate(value)
	a := answer{OK: res.IsValid(), Errors: []schemaError{}}
	for _, e := range res.Errors {
		se := schemaError{Message: e.Error()}
		if v, ok := e.(*errors.Validation); ok {
			c := v.Code()
			se.Code, se.Name, se.Value, se.Values = &c, v.Name, v.Value, v.Values
		}
		a.Errors = append(a.Errors, se)
	}
	return a
}

func answerOf(r request) (a answer) {
	defer func() {
		if p := recover(); p != nil {
			a = answer{Stage: "panic", Panic: fmt.Sprint(p)}
		}
	}()
	switch r.Family {
	case "template":
		return renderTemplate(r)
	case "patch":
		return applyPatch(r)
	case "schema":
		return validateSchema(r)
	}
	return answer{Stage: "input", Error: fmt.Sprintf("unknown family %q", r.Family)}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		var r request
		var a answer
		if err := json.Unmarshal(in.Bytes(), &r); err != nil {
			a = fail("input", err)
		} else {
			a = answerOf(r)
		}
		if err := enc.Encode(a); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		out.Flush()
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
