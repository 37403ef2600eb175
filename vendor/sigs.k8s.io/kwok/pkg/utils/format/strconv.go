/*
Copyright 2022 The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package format

import (
	"fmt"
)

// Parse returns the value of the string representation of u.
func Parse[T any](s string) (t T, err error) {
	_, err = fmt.Sscan(s, &t)
	return t, err
}

// String returns the string representation of u.
func String(i any) string {
	return fmt.Sprintf("%v", i)
}
