# A realistic authorization policy for bench/rego: 20 rules over subjects, capabilities and
# arguments, with sets, object lookups, a comprehension, builtins, negation and a default.
package codemode.authz

import rego.v1

default allow := false

admins := {"root", "alice"}

operators := {"bob", "carol", "dave", "erin"}

teams := {
	"bob": "payments",
	"carol": "payments",
	"dave": "search",
	"erin": "platform",
}

read_only := {"records.entry.lookup", "health.entry.status", "instances.entry.list", "images.entry.list"}

mutating := {"instances.entry.create", "instances.entry.delete", "instances.entry.exec", "instances.entry.stop"}

subject := input.subject.id

capability := input.capability.id

is_admin if subject in admins

is_operator if subject in operators

team := teams[subject]

# The instance an argument names belongs to the subject's team.
owns_target if startswith(input.arguments.instance, concat("-", ["sb", team]))

limit_ok if object.get(input.arguments, "limit", 0) <= 100

forbidden_keys := {k | some k in ["secret", "token", "password"]}

key_ok if not input.arguments.key in forbidden_keys

allow if is_admin

allow if {
	capability in read_only
	subject != ""
	limit_ok
	key_ok
}

allow if {
	is_operator
	capability in mutating
	owns_target
	not exec_denied
}

exec_denied if {
	capability == "instances.entry.exec"
	some word in ["rm", "shutdown", "reboot"]
	contains(input.arguments.command, word)
}

allow if {
	capability == "images.entry.publish"
	team == "platform"
	regex.match(`^[a-z0-9-]+:v[0-9]+$`, input.arguments.image)
}
