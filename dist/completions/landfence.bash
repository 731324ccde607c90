# SPDX-License-Identifier: MIT
# bash completion for landfence.
#
# The commands, each command's options and the agent profile names are read
# from the tool itself (`landfence --help`, `landfence COMMAND --help`,
# `landfence --list-profiles`), so the completion follows whichever landfence
# is being completed. What an option's argument is comes from its --help
# metavariable: FILE (a policy file), DIR (a directory), NAME (a profile).
# Only the commands' operands are known here: run's command, check's
# request, the agent name of hook, import and export.

# The landfence to ask: the word being completed for, else the one on PATH.
_landfence_bin()
{
	local bin=${COMP_WORDS[0]}
	if [[ $bin == */* && -x $bin ]]; then
		printf '%s\n' "$bin"
	else
		command -v landfence
	fi
}

# Reads the option list of `landfence [COMMAND] --help` into
# _landfence_opts (every spelling) and _landfence_metavar (spelling ->
# FILE, DIR, NAME; absent when the option takes no argument). The entries
# are the lines whose first character after at most 8 blanks is "-", up to
# the description (two blanks or more).
_landfence_parse()
{
	local bin=$1 cmd=$2 line spec word metavar
	local -a names
	_landfence_opts=()
	_landfence_metavar=()
	while IFS= read -r line; do
		[[ $line =~ ^[[:blank:]]{0,8}(-[^[:blank:]].*)$ ]] || continue
		spec=${BASH_REMATCH[1]%%  *}
		names=()
		metavar=
		for word in $spec; do
			word=${word%,}
			if [[ $word == -* ]]; then
				names+=("$word")
			else
				metavar=$word
			fi
		done
		for word in "${names[@]}"; do
			_landfence_opts+=("$word")
			[[ -n $metavar ]] && _landfence_metavar[$word]=$metavar
		done
	done < <("$bin" ${cmd:+"$cmd"} --help 2>/dev/null)
}

# The commands of `landfence --help`: the indented lines below "commands:".
_landfence_commands()
{
	"$1" --help 2>/dev/null | awk '/^commands:/ { on = 1; next } on && /^[ \t]+[a-z]/ { print $1; next } on { exit }'
}

# Completes an option's argument by its metavariable.
_landfence_complete_arg()
{
	local bin=$1 metavar=$2 cur=$3
	case $metavar in
	DIR)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		;;
	NAME)
		mapfile -t COMPREPLY < <(compgen -W "$("$bin" --list-profiles 2>/dev/null)" -- "$cur")
		;;
	FILE)
		# Policy files are JSON; directories lead to them.
		mapfile -t COMPREPLY < <(
			compgen -d -- "$cur"
			compgen -f -X '!*.json' -- "$cur"
		)
		;;
	*)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		;;
	esac
	[[ $metavar == DIR || $metavar == FILE ]] && compopt -o filenames 2>/dev/null
	return 0
}

_landfence()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local bin cmd='' word i first=0 operands=0 dashdash=0 cmdword=0
	local -a _landfence_opts
	local -A _landfence_metavar
	COMPREPLY=()
	bin=$(_landfence_bin) || return 0
	[[ -n $bin ]] || return 0

	# The command is the first word after landfence that is not an option.
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} != -* ]]; then
			cmd=${COMP_WORDS[i]}
			first=$i
			break
		fi
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			_landfence_parse "$bin" ""
			mapfile -t COMPREPLY < <(compgen -W "${_landfence_opts[*]}" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$(_landfence_commands "$bin")" -- "$cur")
		fi
		return 0
	fi

	_landfence_parse "$bin" "$cmd"
	# Walk the words after the command up to the one being completed:
	# options, their arguments, "--", and operands. For run, the first
	# operand is the command to run, and everything from there on is its.
	for ((i = first + 1; i < COMP_CWORD; i++)); do
		word=${COMP_WORDS[i]}
		if ((!dashdash)) && [[ $word == -- ]]; then
			dashdash=1
		elif ((!dashdash)) && [[ $word == -* ]]; then
			[[ -n ${_landfence_metavar[$word]} ]] && ((i++))
		elif [[ $cmd == run ]]; then
			cmdword=$i
			break
		else
			((operands++))
		fi
	done
	if [[ $cmd == run ]] && ((cmdword || dashdash)); then
		# The command to run and its own arguments: bash-completion's
		# _command_offset completes them as if typed alone.
		((cmdword)) || cmdword=$COMP_CWORD
		if declare -F _command_offset >/dev/null; then
			_command_offset "$cmdword"
		elif ((cmdword == COMP_CWORD)); then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
		return 0
	fi

	local prev=${COMP_WORDS[COMP_CWORD - 1]}
	if ((COMP_CWORD - 1 > first)) && ((!dashdash)) && [[ -n ${_landfence_metavar[$prev]} ]]; then
		_landfence_complete_arg "$bin" "${_landfence_metavar[$prev]}" "$cur"
		return 0
	fi
	if ((!dashdash)) && [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "${_landfence_opts[*]}" -- "$cur")
		return 0
	fi

	case $cmd in
	run)
		mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		;;
	check)
		if ((operands == 0)); then
			mapfile -t COMPREPLY < <(compgen -W "read write delete bash" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			compopt -o filenames 2>/dev/null
		fi
		;;
	hook | export)
		((operands == 0)) && mapfile -t COMPREPLY < <(compgen -W "claude" -- "$cur")
		;;
	import)
		if ((operands == 0)); then
			mapfile -t COMPREPLY < <(compgen -W "claude" -- "$cur")
		else
			_landfence_complete_arg "$bin" FILE "$cur"
		fi
		;;
	esac
	return 0
}

complete -F _landfence landfence
