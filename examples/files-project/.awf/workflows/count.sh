echo "{{len (split .inputs.topic " ")}} words"
