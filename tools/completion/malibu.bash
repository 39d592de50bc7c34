# bash completion for malibu and its tools.  Installed as
# share/bash-completion/completions/malibu (the other commands' names link to it); make puts
# malibu's option table (`malibu --help-completion`, generated from emu/system/options.c) above
# this part.  Needs only bash, not the bash-completion package's helpers.

# the text of the word being completed up to the cursor, whole: bash splits "--gpu=g5" and
# "preset=g52,gpu.l1.si" at '=' (COMP_WORDBREAKS), we want them in one piece
_malibu_whole_word() {
    local line=${COMP_LINE:0:COMP_POINT}
    printf '%s' "${line##*[[:space:]]}"
}

# COMPREPLY from candidates that complete the whole word $1, cut to the part bash replaces ($2)
_malibu_reply() {
    local whole=$1 cur=$2 c
    shift 2
    COMPREPLY=()
    for c in "$@"; do
        [[ $c == "$whole"* ]] && COMPREPLY+=("${c:${#whole}-${#cur}}")
    done
}

_malibu_images() {
    local base=${XDG_CACHE_HOME:-$HOME/.cache}
    [[ $base == /* ]] || base=$HOME/.cache
    local d
    for d in "$base"/malibu/images/*/; do
        [[ -d $d ]] && basename "$d"
    done
}

_malibu() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local whole before prev opt value
    whole=$(_malibu_whole_word)
    before=${COMP_LINE:0:COMP_POINT-${#whole}}
    before=${before%"${before##*[![:space:]]}"}
    prev=${before##*[[:space:]]}               # the word before, whole
    if [[ $whole == --*=* ]]; then             # --option=value
        opt=${whole%%=*}
        value=${whole#*=}
    elif [[ $whole == -* ]]; then
        _malibu_reply "$whole" "$cur" $_malibu_options
        return
    elif [[ $prev == -* ]]; then                # --option value
        opt=$prev
        value=$whole
    else
        return
    fi
    local spec kind
    spec=$(_malibu_option_arg "$opt")
    kind=${spec%% *}
    local -a words=()
    [[ $spec == *" "* ]] && read -r -a words <<< "${spec#* }"
    # candidates are whole words: what precedes the value ("--gpu=") and, in a list, its items
    local lead=${whole:0:${#whole}-${#value}} head=""
    [[ $kind == @(list|keys) && $value == *,* ]] && head=${value%,*},
    case $kind in
    words)
        _malibu_reply "$whole" "$cur" "${words[@]/#/$lead}" ;;
    list)       # comma-separated: complete the last item
        _malibu_reply "$whole" "$cur" "${words[@]/#/$lead$head}" ;;
    keys)       # KEY=VALUE,...: complete a key of the last item
        [[ ${value##*,} == *=* ]] && return
        _malibu_reply "$whole" "$cur" "${words[@]/#/$lead$head}"
        compopt -o nospace 2>/dev/null ;;
    file)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    dir)
        mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
    image)      # a directory or the name of an image of malibu-image
        mapfile -t COMPREPLY < <(compgen -d -- "$cur"; compgen -W "$(_malibu_images)" -- "$cur") ;;
    esac
}

_malibu_image() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    if [[ $COMP_CWORD == 1 ]]; then
        mapfile -t COMPREPLY < <(compgen -W "build list remove dir --help" -- "$cur")
    elif [[ ${COMP_WORDS[1]} == build && ${COMP_WORDS[COMP_CWORD-1]} == --stack ]]; then
        mapfile -t COMPREPLY < <(compgen -W "backports stable" -- "$cur")
    elif [[ ${COMP_WORDS[1]} == build && $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "--stack --packages --keep-work --help" -- "$cur")
    elif [[ ${COMP_WORDS[1]} == @(remove|dir|build) ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_malibu_images)" -- "$cur")
    fi
}

# the other tools: the options their --help lists, else file names
_malibu_tool() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$("$1" --help 2>&1 | grep -oE -- '(^|[][ ,])--?[A-Za-z][A-Za-z0-9-]*' | tr -d '[], ' | sort -u)" \
                                 -- "$cur")
    else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
}

complete -F _malibu malibu
complete -F _malibu_image malibu-image
# (make appends the line of the other commands: every one it installs)
