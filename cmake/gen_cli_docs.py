#!/usr/bin/env python3
"""Generate gpuplan(1), the bash completion and the zsh completion from the built binary's own
help: `gpuplan help` lists the command table, `gpuplan COMMAND [SUB] --help` prints each option
table (cli/opt.c renders both), so the three files cannot drift from --help.

usage: gen_cli_docs.py GPUPLAN VERSION OUTDIR
writes OUTDIR/gpuplan.1, OUTDIR/gpuplan.bash and OUTDIR/_gpuplan."""
import os
import re
import subprocess
import sys

OPTION = re.compile(r"^\s+(?:-([A-Za-z0-9]), )?--([a-z0-9][a-z0-9-]*)(?: (\S+))?\s+(.*)$")


def run(gpuplan, *args):
    env = dict(os.environ, NO_COLOR="1", GPUPLAN_DB=os.devnull)
    out = subprocess.run([gpuplan, *args], capture_output=True, text=True, env=env, check=False)
    if out.returncode != 0:
        sys.exit(f"gen_cli_docs: `gpuplan {' '.join(args)}` exited {out.returncode}: {out.stderr}")
    return out.stdout + out.stderr


def parse_help(text):
    """usage line, summary, the command's options and the global ones, from one --help."""
    lines = text.splitlines()
    usage = lines[0].removeprefix("usage: ").strip()
    summary, section, own, common = "", None, [], []
    for line in lines[1:]:
        if line.strip() and section is None and not line.endswith(":"):
            summary = summary or line.strip()
        if line in ("options:", "global options:"):
            section = own if line == "options:" else common
            continue
        m = OPTION.match(line)
        if m and section is not None:
            short, name, value, text_ = m.groups()
            section.append({"short": short, "name": name, "value": value, "help": text_})
    return usage, summary, own, common


def subcommands(command, usage):
    """Words of the usage line that name a subcommand: lowercase, not a flag's value."""
    tokens = usage.removeprefix(f"gpuplan {command}").replace("[", " ").replace("]", " ").split()
    subs, previous = [], ""
    for token in tokens:
        for word in token.split("|"):
            if re.fullmatch(r"[a-z]+", word) and word != "options" and \
                    not previous.startswith("-") and word not in subs:
                subs.append(word)
        previous = token
    return subs


def read_commands(gpuplan):
    text = run(gpuplan, "help")
    names, summaries = [], {}
    in_list = False
    for line in text.splitlines():
        if line == "commands:":
            in_list = True
        elif in_list and re.match(r"^  [a-z]+\s", line):
            name, summary = line.split(None, 1)
            names.append(name)
            summaries[name] = summary.strip()
        elif in_list and not line.strip():
            in_list = False
    commands, common = [], []
    for name in names:
        usage, _summary, own, common = parse_help(run(gpuplan, name, "--help"))
        subs = []
        for sub in subcommands(name, usage):
            _u, _s, sub_own, _c = parse_help(run(gpuplan, name, sub, "--help"))
            subs.append({"name": sub, "options": sub_own})
        commands.append({"name": name, "summary": summaries[name], "usage": usage,
                         "options": own, "subs": subs})
    return commands, common


def roff(text):
    return text.replace("\\", "\\\\").replace("-", "\\-").replace("'", "\\(aq")


def man_options(options):
    out = []
    for o in options:
        flag = (f"\\fB\\-{o['short']}\\fR, " if o["short"] else "") + f"\\fB\\-\\-{o['name']}\\fR"
        if o["value"]:
            flag += f" \\fI{roff(o['value'])}\\fR"
        out += [".TP", flag, roff(o["help"])]
    return out


def write_man(path, version, commands, common):
    lines = [
        f'.TH GPUPLAN 1 "" "gpuplan {version}" "User Commands"',
        ".SH NAME", "gpuplan \\- GPU fleet, power and cost planner",
        ".SH SYNOPSIS", "\\fBgpuplan\\fR [\\fIglobal options\\fR] \\fICOMMAND\\fR [\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        "gpuplan plans GPU fleets: how many of which GPUs a workload needs, their power and cost, "
        "from a GPU catalog, price feeds kept in a local database and calibrations measured on "
        "the machines themselves. This page is generated from the program's own help.",
        ".SH COMMANDS",
    ]
    for c in commands:
        lines += [f".SS {c['name']}", roff(c["summary"]), ".PP", f"\\fB{roff(c['usage'])}\\fR"]
        lines += man_options(c["options"])
        for s in c["subs"]:
            if s["options"] and s["options"] != c["options"]:
                lines += [".PP", f"Options of \\fBgpuplan {c['name']} {s['name']}\\fR:"]
                lines += man_options(s["options"])
    lines += [".SH GLOBAL OPTIONS", "Accepted by every command, before or after it."]
    lines += man_options(common)
    lines += [
        ".SH ENVIRONMENT",
        ".TP", "\\fBGPUPLAN_DB\\fR", "the database file when \\-\\-db is not given",
        ".TP", "\\fBXDG_DATA_HOME\\fR", "else the database is $XDG_DATA_HOME/gpuplan/gpuplan.db",
        ".TP", "\\fBGPUPLAN_BACKEND_DIR\\fR", "folders searched first for calibration modules",
        ".TP", "\\fBNO_COLOR\\fR", "no colour in the output",
        ".SH EXIT STATUS",
        "0 ok, 1 error, 2 usage or invalid input, 3 no or stale data (and a suspect node in "
        "\\fBcalibrate list\\fR), 4 network, 5 database.",
        ".SH FILES",
        ".TP", "\\fI~/.local/share/gpuplan/gpuplan.db\\fR", "the default database",
        ".TP", "\\fI/usr/lib/gpuplan/libgpuplan\\-*.so\\fR",
        "calibration modules (beside the executable: <bindir>/../lib/gpuplan)",
        ".SH SEE ALSO",
        "/usr/share/doc/gpuplan/ (fleet.md, calibration.md, refresh.md, exit\\-codes.md)",
    ]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def flags(options):
    return " ".join(f"--{o['name']}" + (f" -{o['short']}" if o["short"] else "") for o in options)


def write_bash(path, commands, common):
    cases = []
    for c in commands:
        subs = " ".join(s["name"] for s in c["subs"])
        sub_cases = "".join(
            f"      {s['name']}) opts=\"{flags(s['options'])} $global\" ;;\n" for s in c["subs"])
        body = f"    opts=\"{flags(c['options'])} $global\"\n"
        if subs:
            body += (f"    case \"$sub\" in\n{sub_cases}    esac\n"
                     f"    [[ -z \"$sub\" && \"$cur\" != -* ]] && opts=\"{subs}\"\n")
        cases.append(f"  {c['name']})\n{body}    ;;\n")
    text = (
        "# bash completion for gpuplan, generated from its --help (cmake/gen_cli_docs.py)\n"
        "_gpuplan() {\n"
        "  local cur=${COMP_WORDS[COMP_CWORD]} cmd='' sub='' opts i\n"
        f"  local global=\"{flags(common)}\"\n"
        f"  local commands=\"{' '.join(c['name'] for c in commands)}\"\n"
        "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
        "    case ${COMP_WORDS[i]} in\n"
        "    -*) ;;\n"
        "    *) if [[ -z $cmd ]]; then cmd=${COMP_WORDS[i]}; elif [[ -z $sub ]]; then sub=${COMP_WORDS[i]}; fi ;;\n"
        "    esac\n"
        "  done\n"
        "  case $cmd in\n"
        "  '') opts=\"$commands $global --version\" ;;\n"
        + "".join(cases) +
        "  *) opts=\"$global\" ;;\n"
        "  esac\n"
        "  mapfile -t COMPREPLY < <(compgen -W \"$opts\" -- \"$cur\")\n"
        "}\n"
        "complete -o default -F _gpuplan gpuplan\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def zsh_specs(options):
    out = []
    for o in options:
        text = o["help"].replace("'", "'\\''").replace("[", "\\[").replace("]", "\\]")
        value = f":{o['value']}:" if o["value"] else ""
        if o["short"]:
            out.append(f"'(-{o['short']} --{o['name']})'{{-{o['short']},--{o['name']}}}'[{text}]{value}'")
        else:
            out.append(f"'--{o['name']}[{text}]{value}'")
    return out


def write_zsh(path, commands, common):
    described = "\n".join(
        f"    '{c['name']}:{c['summary'].replace(chr(39), '').replace(':', ' -')}'" for c in commands)
    cases = []
    for c in commands:
        specs = zsh_specs(c["options"]) + ['"${global[@]}"']
        for s in c["subs"]:
            specs += zsh_specs([o for o in s["options"] if o not in c["options"]])
        subs = " ".join(s["name"] for s in c["subs"])
        if subs:
            specs.append(f"'1:subcommand:({subs})'")
        specs.append("'*:file:_files'")
        cases.append(f"  {c['name']})\n    _arguments -s {' '.join(specs)}\n    ;;\n")
    text = (
        "#compdef gpuplan\n"
        "# zsh completion for gpuplan, generated from its --help (cmake/gen_cli_docs.py)\n"
        "local -a commands global\n"
        f"global=({' '.join(zsh_specs(common))})\n"
        f"commands=(\n{described}\n)\n"
        "if (( CURRENT == 2 )); then\n"
        "  _describe -t commands 'gpuplan command' commands\n"
        "  return\n"
        "fi\n"
        "local cmd=${words[2]}\n"
        "shift 1 words; (( CURRENT-- ))\n"
        "case $cmd in\n" + "".join(cases) + "esac\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(gpuplan, version, outdir):
    commands, common = read_commands(gpuplan)
    os.makedirs(outdir, exist_ok=True)
    write_man(os.path.join(outdir, "gpuplan.1"), version, commands, common)
    write_bash(os.path.join(outdir, "gpuplan.bash"), commands, common)
    write_zsh(os.path.join(outdir, "_gpuplan"), commands, common)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
