#!/usr/bin/env bash
# Measures `ocd port` on the Core Data layers of real open-source apps (issue #31): for each app,
# the Swift files that import CoreData and nothing but Foundation beside it, ported with
# `ocd port` alone, then type-checked together against OpenCoreData, beside the app's files
# that import only Foundation (its value types; their own errors don't count). Prints the README's table
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

# owner/name, the commit measured, and the folder of the module that holds the persistence
# layer ("." for an app whose sources are one module).
apps=(
    "kiwix/kiwix-apple 973f26d22dde9e207d9c459b57826d756c60b5ff ."
    "LoopKit/LoopKit 2f535b3ca46825e82e0dd1b5ef9daccd53a3f0ca LoopKit"
    "woocommerce/woocommerce-ios 2077debb97b5020c3aa1faaece30961beabf73e8 Storage/Storage"
    "brave/brave-ios 398f8b763aa88cdc23289138863d62f05b2c2a23 Sources/Data"
    "mastodon/mastodon-ios a9e088a9c7b88720fed5eefdd2dc1606b5f21dc8 MastodonSDK/Sources/CoreDataStack"
    "nightscout/Trio 29350e31a9f8b25dcea719f52fa1abb676e34af8 Model"
)

work=$(mktemp -d "${TMPDIR:-/tmp}/ocd-measure-port.XXXXXX")
# OCD_PORT_KEEP=1 keeps the clones, the ported files and the compiler's output.
if [ -n "${OCD_PORT_KEEP:-}" ]; then echo "work directory: $work"; else trap 'rm -rf "$work"' EXIT; fi

typecheck() {
    swiftc -typecheck -continue-building-after-errors -diagnostic-style llvm -swift-version 5 -module-name PortedApp \
        -I "$build/Modules" -I "$root/Sources/CMemoryHints/include" \
        -Xcc -fmodule-map-file="$root/Sources/CSQLite/module.modulemap" \
        -Xcc -fmodule-map-file="$root/Sources/CZlib/module.modulemap" \
        -Xcc -fmodule-map-file="$build/CMemoryHints.build/module.modulemap" \
        -load-plugin-executable "$build/OpenCoreDataMacrosPlugin-tool#OpenCoreDataMacrosPlugin" "$@"
}

printf '| app | commit | module | persistence files | compile after `ocd port` | fail: app code outside the layer | fail: an open issue'"'"'s API | fail: Combine | fail: OpenCoreData | BY HAND items |\n|---|---|---|---|---|---|---|---|---|---|\n' > "$work/table.md"
for entry in "${apps[@]}"; do
    read -r repo commit module <<< "$entry"; name=${repo#*/}
    inModule() { [ "$module" = "." ] || [[ "$1" == "$module/"* ]]; }
    source="$work/src/$name"
    # Only the Swift files that mention CoreData are taken out of the repository.
    if [ -n "${OCD_PORT_SOURCES:-}" ]; then
        git clone -q --bare "$OCD_PORT_SOURCES/${repo/\//+}/repo" "$source.git"
    else
        git clone -q --bare "https://github.com/$repo" "$source.git"
    fi
    while IFS= read -r file; do
        inModule "$file" || continue
        mkdir -p "$source/$(dirname "$file")"
        git -C "$source.git" show "$commit:$file" > "$source/$file"
    done < <(git -C "$source.git" grep -l 'import CoreData' "$commit" -- '*.swift' | sed "s/^$commit://")
    # The module's Swift files that import nothing but Foundation (or nothing) go along
    # unported, so that the layer's references to the app's own value types resolve; their own
    # errors are not counted. One file per name (the compiler wants that), the layer's first.
    support="$work/support/$name"
    names=$(cd "$source" && find . -name '*.swift' -exec basename {} \; | sort -u)
    while IFS= read -r file; do
        case "$file" in *Tests/*|*Test/*) continue ;; esac
        inModule "$file" || continue
        base=$(basename "$file")
        echo "$names" | grep -qxF "$base" && continue
        names=$(printf '%s\n%s' "$names" "$base")
        text=$(git -C "$source.git" show "$commit:$file")
        modules=$(echo "$text" | grep -E '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]' | sed -E 's/.*import[[:space:]]+(class |struct |enum |protocol |func |var )?([A-Za-z_0-9]+).*/\2/' | sort -u || true)
        echo "$modules" | grep -qvxE 'Foundation|' && continue
        mkdir -p "$support/$(dirname "$file")"
        echo "$text" > "$support/$file"
    done < <(git -C "$source.git" ls-tree -r --name-only "$commit" | grep '\.swift$' | grep -v -F -x -f <(git -C "$source.git" grep -l 'import CoreData' "$commit" -- '*.swift' | sed "s/^$commit://"))

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
    supportFiles=()
    [ -d "$support" ] && mapfile -t supportFiles < <(find "$support" -name '*.swift' | sort)
    (cd "$ported" && typecheck "${files[@]}" "${supportFiles[@]}" > "$work/$name.errors.txt" 2>&1 || true)
    # A failing file "needs app code" when each of its errors is a name the app declares in a
    # file outside the layer (a type of a file that imports UIKit, say); otherwise it fails on
    # OpenCoreData, which is what this measures.
    # An error inside a macro's expansion names a generated file; the note after it names the
    # declaration the macro is attached to, which is the file that fails.
    awk '
        / error: / { if ($0 ~ /swift-generated-sources/) { pending = substr($0, index($0, "error: ")); next } print; next }
        / note: in expansion of macro/ && pending != "" { split($0, at, ":"); print at[1] ":" at[2] ":" at[3] ": " pending " (in the macro expansion)"; pending = "" }
    ' "$work/$name.errors.txt" | grep -E '^[^ ]+\.swift:[0-9]+:[0-9]+: error:' | sed 's|^\./||' | grep -v -e '^OpenCoreDataClassNames.swift:' -e "^$support/" | sort -u > "$work/$name.failures" || true
    # Why each failing file fails, by the names its errors miss: a name the app declares in a
    # file outside the layer (then nothing else in the file can be judged), batch requests or
    # persistent history (issue #26), Combine (which Apple's Foundation brings and Linux lacks);
    # anything else is OpenCoreData's.
    open_issue_api='NSBatch(Delete|Update|Insert)(Request|Result)|NSPersistentHistory[A-Za-z]*'
    combine_api='ObservableObject|Published|AnyCancellable|AnyPublisher|PassthroughSubject|CurrentValueSubject'
    app=0; pending=0; combine=0; ours=0
    echo "## $repo: files that still fail, and why" >> "$work/details.md"
    while IFS= read -r file; do
        needs_app=""; needs_issue=""; needs_combine=""; other=""
        while IFS= read -r message; do
            missing=$(echo "$message" | sed -nE "s/.*error: (cannot find (type )?|value of type '[^']*' has no member |unknown attribute )'([A-Za-z_0-9]+)'.*/\3/p")
            if [ -n "$missing" ] && echo "$missing" | grep -qxE "$open_issue_api"; then needs_issue=1
            elif [ -n "$missing" ] && git -C "$source.git" grep -qE "(class|struct|enum|protocol|typealias|actor|func|var|let|case)[[:space:]]+$missing([^A-Za-z0-9_]|\$)" "$commit" -- '*.swift'; then needs_app=1
            elif [ -n "$missing" ] && echo "$missing" | grep -qxE "$combine_api"; then needs_combine=1
            else other=1
            fi
        done < <(grep -F "$file:" "$work/$name.failures")
        if [ -n "$needs_app" ]; then kind="app code outside the layer"; app=$((app + 1))
        elif [ -n "$needs_issue" ]; then kind="an open issue's API"; pending=$((pending + 1))
        elif [ -n "$needs_combine" ] && [ -z "$other" ]; then kind="Combine"; combine=$((combine + 1))
        else kind="OpenCoreData"; ours=$((ours + 1))
        fi
        echo "- $file ($kind):" >> "$work/details.md"
        grep -F "$file:" "$work/$name.failures" | sed -E 's/^[^:]+:([0-9]+):[0-9]+: error: /    line \1: /' | sort -t: -k2 -u | head -8 >> "$work/details.md"
    done < <(cut -d: -f1 "$work/$name.failures" | sort -u)
    compiled=$((count - app - pending - combine - ours))
    printf '| %s | %s | %s | %d | %d (%d%%) | %d | %d | %d | %d | %d |\n' "$repo" "${commit:0:8}" "$module" "$count" "$compiled" $((count ? compiled * 100 / count : 0)) "$app" "$pending" "$combine" "$ours" "$byhand" >> "$work/table.md"
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
