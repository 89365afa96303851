#!/bin/sh
# A script_file that starts with #! runs as its own file. Inputs are environment variables, and
# the text is a template first: {{.workflow.Name}} below is the workflow's name.
echo "report on $topic for {{.workflow.Name}}"
