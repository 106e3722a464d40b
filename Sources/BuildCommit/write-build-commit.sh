#!/bin/sh
# Writes OUTPUT/BuildCommit.swift naming the commit the package at ROOT is built from:
#   a clone (ROOT is the top of a git work tree): `git rev-parse`, with "+changes" when files differ from it;
#   a tarball made by `git archive` (GitHub's too): the hash git wrote into archived-commit (export-subst);
#   anything else: "unknown".
# The file is rewritten only when its text changes, so an unchanged commit recompiles nothing.
# Usage: write-build-commit.sh ROOT OUTPUT
root=$1
output=$2
commit=
if [ "$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$root" && pwd -P)" ]; then
    commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null)
    if [ -n "$commit" ] && ! git -C "$root" diff --quiet HEAD -- 2>/dev/null; then commit="$commit+changes"; fi
fi
if [ -z "$commit" ]; then
    archived=$(cat "$root/Sources/BuildCommit/archived-commit" 2>/dev/null)
    case "$archived" in
        *Format*|"") commit=unknown ;;
        *) commit=$(printf '%s' "$archived" | cut -c1-12) ;;
    esac
fi
mkdir -p "$output"
text="/// The commit this program was built from (written at build time by Sources/BuildCommit).
enum BuildCommit {
    static let hash = \"$commit\"
}"
if [ "$(cat "$output/BuildCommit.swift" 2>/dev/null)" != "$text" ]; then
    printf '%s\n' "$text" > "$output/BuildCommit.swift"
fi
