# bash completion for kifu. Installed as
# $(DATADIR)/bash-completion/completions/kifu; or: source kifu.bash
#
# Everything it offers comes from kifu itself (`kifu complete ...`, from
# the same tables and help texts kifu uses), so it never lists an option
# or a value kifu does not take.

_kifu()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd=${COMP_WORDS[1]} arg exts values
	local IFS=$'\n'

	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$(kifu complete commands 2>/dev/null)" \
		    -- "$cur"))
		return 0
	fi
	if [ "$cmd" = help ]; then
		COMPREPLY=($(compgen -W "$(kifu complete commands 2>/dev/null)" \
		    -- "$cur"))
		return 0
	fi
	# The option before the word takes a value: offer its values.
	case $prev in
	-*)
		arg=$(kifu complete options "$cmd" 2>/dev/null |
		    awk -v o="$prev" '$1 == o { print $2; exit }')
		if [ -n "$arg" ] && [ "$arg" != - ]; then
			values=$(kifu complete values "$cmd" "$prev" 2>/dev/null)
			if [ -n "$values" ]; then
				COMPREPLY=($(compgen -W "$values" -- "$cur"))
				case $values in *=*) compopt -o nospace 2>/dev/null ;; esac
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return 0
		fi
		;;
	esac
	case $cur in
	-*)
		COMPREPLY=($(compgen -W "$(kifu complete options "$cmd" \
		    2>/dev/null | cut -d' ' -f1)" -- "$cur"))
		return 0
		;;
	esac
	# Files kifu reads, by extension in any case, and directories.
	exts=$(kifu complete files "$cmd" 2>/dev/null | tr '\n' '|')
	exts=${exts%|}
	local shopt_save
	shopt_save=$(shopt -p extglob nocaseglob || :)
	shopt -s extglob nocaseglob
	COMPREPLY=($(compgen -d -- "$cur") \
	    $(compgen -f -X "!*.@($exts)" -- "$cur"))
	eval "$shopt_save"
	return 0
}
complete -o filenames -F _kifu kifu
