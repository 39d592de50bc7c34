#!/usr/bin/env python3
"""A manual page from a command's --help text (for the tools whose options have no table).

    help2man.py NAME VERSION < HELP-TEXT > NAME.1

The page: NAME with its line of tools/man/descriptions (or else the first line of the help that is
not its usage), the help text as it is (its options are the synopsis), SEE ALSO malibu(1).
"""
import os
import sys


def description(name):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "descriptions")) as f:
        for line in f:
            if not line.startswith("#") and line.split("\t")[0] == name:
                return line.split("\t", 1)[1].strip()
    return ""


def roff(line):
    line = line.replace("\\", "\\e")
    return "\\&" + line if line.startswith((".", "'")) else line


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    name, version = sys.argv[1:]
    desc = description(name)
    text = sys.stdin.read().rstrip("\n").split("\n")
    if not any(t.strip() for t in text):
        sys.exit("help2man: %s printed no --help text" % name)
    if not desc:
        desc = next((t.strip() for t in text if t.strip() and not t.lower().startswith("usage")
                     and not t.startswith(" ")), name)
    desc = desc.rstrip(".")
    desc = desc[len(name) + 1:].strip() if desc.startswith(name + ":") else desc
    out = [".TH %s 1 \"\" \"malibu %s\" \"malibu\"" % (name.upper(), version),
           ".SH NAME", "%s \\- %s" % (name.replace("-", "\\-"), roff(desc)),
           ".SH DESCRIPTION", "The options, as \\fB%s \\-\\-help\\fR prints them:" % name.replace("-", "\\-"),
           ".PP", ".nf"]
    out += [roff(t) for t in text]
    out += [".fi", ".SH SEE ALSO", ".BR malibu (1)"]
    print("\n".join(out))


if __name__ == "__main__":
    main()
