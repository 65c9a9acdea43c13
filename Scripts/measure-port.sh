#!/usr/bin/env bash
# Measures `ocd port` on the Core Data layers of real open-source apps (issue #31): for each app,
# the Swift files that import CoreData and nothing but Foundation beside it, ported with
# `ocd port` alone, then type-checked together against OpenCoreData. Prints the README's table
# and, per app, the first error of every file that still fails.
#
# Run by hand (it clones the apps; nothing of theirs enters this repository):
#   swift build --product ocd && swift build --product ocd-port && swift build --target OpenCoreDataMacros
#   Scripts/measure-port.sh                 # clones from GitHub into a temporary directory
#   OCD_PORT_SOURCES=/path/to/clones Scripts/measure-port.sh   # <dir>/<owner>+<name>/repo git dirs
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/.build/debug"
for tool in ocd ocd-port OpenCoreDataMacrosPlugin-tool; do
    [ -x "$build/$tool" ] || { echo "missing $build/$tool: build as this script's header says" >&2; exit 2; }
done

# owner/name and the commit measured.
apps=(
    "kiwix/kiwix-apple 973f26d22dde9e207d9c459b57826d756c60b5ff"
    "LoopKit/LoopKit 2f535b3ca46825e82e0dd1b5ef9daccd53a3f0ca"
    "woocommerce/woocommerce-ios 2077debb97b5020c3aa1faaece30961beabf73e8"
)

work=$(mktemp -d "${TMPDIR:-/tmp}/ocd-measure-port.XXXXXX")
# OCD_PORT_KEEP=1 keeps the clones, the ported files and the compiler's output.
if [ -n "${OCD_PORT_KEEP:-}" ]; then echo "work directory: $work"; else trap 'rm -rf "$work"' EXIT; fi

typecheck() {
    swiftc -typecheck -swift-version 5 -module-name PortedApp \
        -I "$build/Modules" -I "$root/Sources/CMemoryHints/include" \
        -Xcc -fmodule-map-file="$root/Sources/CSQLite/module.modulemap" \
        -Xcc -fmodule-map-file="$root/Sources/CZlib/module.modulemap" \
        -Xcc -fmodule-map-file="$build/CMemoryHints.build/module.modulemap" \
        -load-plugin-executable "$build/OpenCoreDataMacrosPlugin-tool#OpenCoreDataMacrosPlugin" "$@"
}

printf '| app | commit | persistence files | compile after `ocd port` | fail: need app code outside the layer | fail: need an open issue'"'"'s API | fail: OpenCoreData | BY HAND items |\n|---|---|---|---|---|---|---|---|\n' > "$work/table.md"
for entry in "${apps[@]}"; do
    repo=${entry% *}; commit=${entry#* }; name=${repo#*/}
    source="$work/src/$name"
    # Only the Swift files that mention CoreData are taken out of the repository.
    if [ -n "${OCD_PORT_SOURCES:-}" ]; then
        git clone -q --bare "$OCD_PORT_SOURCES/${repo/\//+}/repo" "$source.git"
    else
        git clone -q --bare "https://github.com/$repo" "$source.git"
    fi
    while IFS= read -r file; do
        mkdir -p "$source/$(dirname "$file")"
        git -C "$source.git" show "$commit:$file" > "$source/$file"
    done < <(git -C "$source.git" grep -l 'import CoreData' "$commit" -- '*.swift' | sed "s/^$commit://")

    # Persistence files: import CoreData, and no module but Foundation beside it; not tests.
    ported="$work/port/$name"
    count=0
    while IFS= read -r file; do
        modules=$(grep -E '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]' "$source/$file" | sed -E 's/.*import[[:space:]]+(class |struct |enum |protocol |func |var )?([A-Za-z_0-9]+).*/\2/' | sort -u || true)
        echo "$modules" | grep -qx CoreData || continue
        echo "$modules" | grep -qvxE 'CoreData|Foundation' && continue
        mkdir -p "$ported/$(dirname "$file")"
        cp "$source/$file" "$ported/$file"
        count=$((count + 1))
    done < <(cd "$source" && find . -name '*.swift' | sed 's|^\./||' | sort | grep -vE '(^|/)[^/]*Tests?/')

    "$build/ocd" port "$ported" > "$work/$name.port.txt"
    byhand=$(grep -c '^  BY HAND  ' "$work/$name.port.txt" || true)
    (cd "$ported" && find . -name '*.swift' | sort > "$work/$name.files")
    mapfile -t files < "$work/$name.files"
    (cd "$ported" && typecheck "${files[@]}" > "$work/$name.errors.txt" 2>&1 || true)
    # A failing file "needs app code" when each of its errors is a name the app declares in a
    # file outside the layer (a type of a file that imports UIKit, say); otherwise it fails on
    # OpenCoreData, which is what this measures.
    grep -E '^[^ ]+\.swift:[0-9]+:[0-9]+: error:' "$work/$name.errors.txt" | sed 's|^\./||' | grep -v '^OpenCoreDataClassNames.swift:' | sort -u > "$work/$name.failures" || true
    # Batch requests and persistent history are issue #26's.
    open_issue_api='NSBatch(Delete|Update|Insert)Request|NSBatch(Delete|Update|Insert)Result|NSPersistentHistory[A-Za-z]*'
    app=0; pending=0; ours=0
    echo "## $repo: files that still fail" >> "$work/details.md"
    while IFS= read -r file; do
        kind="app code"
        while IFS= read -r message; do
            missing=$(echo "$message" | sed -nE "s/.*error: cannot find (type )?'([A-Za-z_0-9]+)' in scope.*/\2/p")
            if [ -n "$missing" ] && echo "$missing" | grep -qxE "$open_issue_api"; then
                kind="open issue"
            elif [ -z "$missing" ] || ! git -C "$source.git" grep -qE "(class|struct|enum|protocol|typealias|actor|let|var|func)[[:space:]]+$missing([^A-Za-z0-9_]|\$)" "$commit" -- '*.swift'; then
                kind="OpenCoreData"; break
            fi
        done < <(grep -F "$file:" "$work/$name.failures")
        case "$kind" in
            "app code") app=$((app + 1)) ;;
            "open issue") pending=$((pending + 1)) ;;
            *) ours=$((ours + 1)) ;;
        esac
        echo "- ($kind) $(grep -F "$file:" "$work/$name.failures" | head -1)" >> "$work/details.md"
    done < <(cut -d: -f1 "$work/$name.failures" | sort -u)
    compiled=$((count - app - pending - ours))
    printf '| %s | %s | %d | %d (%d%%) | %d | %d | %d | %d |\n' "$repo" "${commit:0:8}" "$count" "$compiled" $((count ? compiled * 100 / count : 0)) "$app" "$pending" "$ours" "$byhand" >> "$work/table.md"
    {
        echo
        echo "## $repo: ocd port's report"
        cat "$work/$name.port.txt"
        echo
    } >> "$work/details.md"
done
cat "$work/table.md"
echo
cat "$work/details.md"
