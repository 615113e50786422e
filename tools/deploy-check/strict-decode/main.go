// strict-decode: decodes every object of rendered manifests into the Kubernetes API types with the
// API server's strict rules (unknown or duplicate fields are errors), which the JSON-schema validation
// of validate-k8s.mjs cannot see: a misspelt field (imagePullPolcy) would otherwise be dropped silently
// by the cluster. Kinds outside the built-in API groups (CRDs) are skipped; validate-k8s.mjs checks them.
//
//	go run . rendered.yaml [...]
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

func main() {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme, policyv1.AddToScheme,
		autoscalingv2.AddToScheme, networkingv1.AddToScheme, rbacv1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	decoder := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
	failed := false
	for _, file := range os.Args[1:] {
		checked, skipped, problems, err := decodeFile(decoder, scheme, file)
		if err != nil {
			fmt.Printf("INVALID %s: %v\n", file, err)
			failed = true
			continue
		}
		for _, p := range problems {
			fmt.Printf("INVALID %s %s\n", file, p)
		}
		failed = failed || len(problems) > 0
		fmt.Printf("%s: %d objects decoded strictly, %d custom resources skipped: %s\n", file, checked, skipped,
			map[bool]string{true: "valid", false: fmt.Sprintf("%d problem(s)", len(problems))}[len(problems) == 0])
	}
	if failed || len(os.Args) < 2 {
		os.Exit(1)
	}
}

func decodeFile(decoder runtime.Decoder, scheme *runtime.Scheme, file string) (int, int, []string, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, 0, nil, err
	}
	defer f.Close()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(f))
	checked, skipped := 0, 0
	var problems []string
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return checked, skipped, problems, err
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		var meta struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal(doc, &meta); err != nil {
			return checked, skipped, problems, err
		}
		if meta.Kind == "" {
			continue // a document of comments only
		}
		gv, err := schema.ParseGroupVersion(meta.APIVersion)
		if err != nil {
			return checked, skipped, problems, err
		}
		if !scheme.Recognizes(gv.WithKind(meta.Kind)) {
			skipped++
			continue
		}
		if _, _, err := decoder.Decode(doc, nil, nil); err != nil {
			problems = append(problems, fmt.Sprintf("%s/%s: %v", meta.Kind, meta.Metadata.Name, err))
		}
		checked++
	}
	return checked, skipped, problems, nil
}
