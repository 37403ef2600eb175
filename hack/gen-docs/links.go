package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// linkedDirs are where the pages whose links must resolve live, beside the
// root's README.md: moving a page, or renaming a heading, must not leave a
// link behind.
var linkedDirs = []string{"docs", "manifests", "charts"}

var (
	linkRE     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeSpanRE = regexp.MustCompile("`+[^`]*`+")
	headingRE  = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

// checkLinks reports every relative link of the markdown files under root
// (README.md and those of linkedDirs) whose file does not exist, or whose
// #anchor names no heading of the markdown file it points to.
func checkLinks(root string) error {
	var files []string
	if readme := filepath.Join(root, "README.md"); fileExists(readme) {
		files = append(files, readme)
	}
	for _, dir := range linkedDirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			if d.IsDir() && (d.Name() == "vendor" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".md") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	anchors := map[string]map[string]bool{}
	var broken []string
	for _, file := range files {
		lines, err := proseLines(file)
		if err != nil {
			return err
		}
		for _, l := range lines {
			for _, m := range linkRE.FindAllStringSubmatch(codeSpanRE.ReplaceAllString(l.text, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, frag, _ := strings.Cut(target, "#")
				dest := file
				if path != "" {
					dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
				}
				rel, _ := filepath.Rel(root, file)
				where := fmt.Sprintf("%s:%d: %s", filepath.ToSlash(rel), l.n, target)
				if !fileExists(dest) {
					broken = append(broken, where+": no such file")
					continue
				}
				if frag == "" || !strings.HasSuffix(dest, ".md") {
					continue
				}
				if anchors[dest] == nil {
					if anchors[dest], err = headingAnchors(dest); err != nil {
						return err
					}
				}
				if !anchors[dest][frag] {
					broken = append(broken, where+": no such heading")
				}
			}
		}
	}
	if len(broken) > 0 {
		return fmt.Errorf("broken links:\n  %s", strings.Join(broken, "\n  "))
	}
	return nil
}

// line is a line of prose: outside fenced code blocks.
type line struct {
	n    int
	text string
}

// proseLines reads the lines of a markdown file outside its fenced code
// blocks.
func proseLines(file string) ([]line, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var out []line
	fenced := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(text), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, line{n: n, text: text})
		}
	}
	return out, sc.Err()
}

// headingAnchors are the anchors GitHub gives the headings of a markdown
// file: lower case, spaces as hyphens, punctuation dropped, a repeated
// anchor numbered (-1, -2, …).
func headingAnchors(file string) (map[string]bool, error) {
	lines, err := proseLines(file)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range lines {
		m := headingRE.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		a := anchor(m[1])
		if n, dup := seen[a]; dup {
			seen[a] = n + 1
			a = fmt.Sprintf("%s-%d", a, n+1)
		} else {
			seen[a] = 0
		}
		out[a] = true
	}
	return out, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
