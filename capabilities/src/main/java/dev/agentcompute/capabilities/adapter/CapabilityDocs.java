package dev.agentcompute.capabilities.adapter;

import dev.agentcompute.capabilities.config.ComputeConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What describe_api teaches about every capability (ours; the original's description was its
 * summary): each parameter's meaning, format, unit, default, allowed values and limit, what the
 * output fields mean and when they are empty, and one short example call; and the search terms in
 * the words agents use. One table, so the texts are read and kept consistent side by side.
 */
public final class CapabilityDocs {

  /** The description and the extra search terms of one capability. */
  public record Doc(String description, List<String> searchTerms) {}

  private static final String NAME =
      "lowercase letters, digits and '-', at most 32 characters, starting and ending with a letter"
          + " or digit";

  private static final String REF =
      "sandbox: the sandbox's name (from sandbox.create or sandbox.list). name: the instance's"
          + " name (from instance.create or instance.list).";

  /**
   * Placeholders of this server's configured values, filled by {@link #of(String, ComputeConfig)}.
   */
  private static final String DEFAULT_TTL = "{default_ttl}";

  private static final String MAX_TTL = "{max_ttl}";
  private static final String MAX_LIFETIME = "{max_lifetime}";

  private static final String PROCESS_REF =
      REF + " process: the id instance.exec(background=True) returned.";

  private static final Map<String, Doc> BY_NAME =
      Map.ofEntries(
          doc(
              "sandbox.create",
              "Creates an isolated sandbox (an Incus project) with its default network 'default'."
                  + " Everything else (instances, networks) lives in a sandbox. name: optional, "
                  + NAME
                  + "; a two-word name like 'calm-fox' is generated when absent. platform: 'incus'"
                  + " (default) or 'mac' (only when the server has a Mac host). ttl_minutes: the"
                  + " lifetime in minutes from now; absent or 0 uses the server's default ("
                  + DEFAULT_TTL
                  + "); more than the maximum ("
                  + MAX_TTL
                  + ") is refused. At expiry the sandbox and everything in it is deleted;"
                  + " sandbox.extend lengthens it; sandbox.limits tells this server's limits."
                  + " pinned: operator identities only; a pinned sandbox never expires until"
                  + " unpinned. Output: name; platform; expires_at (RFC 3339 UTC); pinned and"
                  + " pinned_by (empty unless pinned); network: the default network's name, kind"
                  + " ('bridge' or 'ovn', the sandbox's fabric), cidr and gateway. Example:"
                  + " sb = sandbox.create(ttl_minutes=60); sb[\"name\"]",
              "lifetime",
              "expiry",
              "environment",
              "workspace",
              "start"),
          doc(
              "sandbox.list",
              "Lists the sandboxes this caller may see (all, or only its own when the server sets"
                  + " sandbox.visibility: owner). No parameters. Output: items, each with name,"
                  + " platform, created_at and expires_at (RFC 3339 UTC), pinned, pinned_by (empty"
                  + " unless pinned) and instances (how many). Example:"
                  + " [s[\"name\"] for s in sandbox.list()[\"items\"]]",
              "sandboxes",
              "projects",
              "environments"),
          doc(
              "sandbox.get",
              "Gets one sandbox with its instances and networks. name: the sandbox's name. Output:"
                  + " name, platform, created_at, expires_at (RFC 3339 UTC), pinned, pinned_by,"
                  + " instances (each name, kind, image, status and addresses: NIC name to IPv4/IPv6"
                  + " addresses, empty until the instance has its network) and networks (name, kind,"
                  + " cidr, gateway). Example: sandbox.get(name=\"calm-fox\")[\"expires_at\"]",
              "expiry",
              "lifetime",
              "details",
              "ip",
              "address"),
          doc(
              "sandbox.extend",
              "Sets a sandbox's expiry to ttl_minutes from now, but never shortens it: when the"
                  + " sandbox already lives longer, its expiry is kept. name: the sandbox's name."
                  + " ttl_minutes: required, at least 1, at most the server's maximum ("
                  + MAX_TTL
                  + "; more is refused), and never past the sandbox's maximum lifetime from its"
                  + " creation ("
                  + MAX_LIFETIME
                  + "). Output:"
                  + " expires_at (RFC 3339 UTC, the expiry now in force) and note (what was set and"
                  + " why). A pinned sandbox ignores its expiry until unpinned. Example:"
                  + " sandbox.extend(name=sb[\"name\"], ttl_minutes=120)[\"note\"]",
              "lifetime",
              "ttl",
              "expiry",
              "keep alive",
              "prolong"),
          doc(
              "sandbox.pin",
              "Pins or unpins a sandbox; only identities listed in the server's"
                  + " sandbox.pin_identities may (others get 'pinning requires an operator"
                  + " identity'). name: the sandbox's name. pinned: true to pin, false to unpin;"
                  + " unpinning restores the expiry it had, and a past expiry deletes it at the next"
                  + " scan. Output: pinned and pinned_by (empty when unpinned). Example:"
                  + " sandbox.pin(name=\"calm-fox\", pinned=True)",
              "lifetime",
              "never expire"),
          doc(
              "sandbox.delete",
              "Deletes a sandbox and everything in it (instances, networks, snapshots, published"
                  + " images); this cannot be undone. name: the sandbox's name. Output: empty dict."
                  + " Example: sandbox.delete(name=sb[\"name\"])",
              "remove",
              "destroy",
              "cleanup",
              "tear down"),
          doc(
              "sandbox.limits",
              "What this server lets the caller have, with the configured values, and what the"
                  + " caller uses now. No parameters. Output: caller (the identity asking);"
                  + " ttl: default_minutes and max_minutes (sandbox.create and sandbox.extend),"
                  + " max_lifetime_minutes (no expiry past creation + this); sandboxes: max and"
                  + " used (the caller's live sandboxes); per_identity: instances and"
                  + " instances_used, networks (net.create ones), forwards and screenshot_mb, over"
                  + " all the caller's sandboxes; per_sandbox: instances, cpus, memory_mb,"
                  + " networks, disk_gb and processes (0: no limit); per_instance: cpus, memory_mb,"
                  + " disk_gb and processes; background: processes (running at once per instance)"
                  + " and output_mb (kept per stream); files: upload_max_bytes (upload_url),"
                  + " read_max_bytes and write_max_bytes (instance.file.read/write), unused_urls"
                  + " and url_ttl_seconds (download_url has no size limit). A refusal names the"
                  + " same limit. Example: l = sandbox.limits(); l[\"ttl\"][\"max_minutes\"]",
              "limits",
              "quota",
              "maximum",
              "how long",
              "allowed",
              "usage"),
          doc(
              "image.list",
              "Lists the curated image catalogue instances are created from (instance.create's"
                  + " image). os: optional filter, exact os name (e.g. 'busybox'). desktop:"
                  + " optional filter, True for images with a graphical desktop (needed by"
                  + " desktop.*). platform: optional filter, 'incus' or 'mac'. Output: items, each"
                  + " with name (what instance.create takes), os, version, kind ('container' or"
                  + " 'vm'), desktop, platform, a description and size_bytes (the stored image's size;"
                  + " left out where the platform does not report it, e.g. Mac seeds). Example:"
                  + " [i[\"name\"] for i in image.list(desktop=True)[\"items\"]]",
              "image",
              "catalogue",
              "template",
              "os",
              "distribution",
              "desktop image"),
          doc(
              "instance.create",
              "Creates and (by default) starts an instance, waiting until it runs. sandbox: the"
                  + " sandbox's name. name: "
                  + NAME
                  + ", unique in the sandbox. image: a name from image.list. kind: 'container'"
                  + " (default) or 'vm', as the image's kinds allow. cpus: 1..256, memory_mb:"
                  + " 16..1048576 MiB, disk_gb: GiB; each defaults to the image's catalogue value."
                  + " network: the network for eth0, default 'default' (the sandbox's own), or"
                  + " 'none' for no NIC. host: cluster member, normally left out. start: default"
                  + " True. Output: name, kind, host, status ('Running' when started) and"
                  + " addresses: NIC name to addresses, often empty right after creation because"
                  + " DHCP has not answered yet; call instance.wait(until=\"network\") then"
                  + " instance.get for the IP. Example: instance.create(sandbox=sb[\"name\"],"
                  + " name=\"web\", image=\"busybox\")",
              "container",
              "vm",
              "machine",
              "server",
              "launch",
              "start"),
          doc(
              "instance.list",
              "Lists a sandbox's instances. sandbox: the sandbox's name. Output: items, each with"
                  + " name, kind, image, status ('Running', 'Stopped', ...) and addresses (NIC name"
                  + " to IP addresses; empty until the instance has its network). Example:"
                  + " instance.list(sandbox=sb[\"name\"])[\"items\"]",
              "instances",
              "containers"),
          doc(
              "instance.get",
              "Gets one instance. "
                  + REF
                  + " Output: name, kind, image, status, cpus, memory_mb, nics (each name, network,"
                  + " mac and addresses: the IP addresses DHCP gave it, empty until the instance has"
                  + " its network; instance.wait(until=\"network\") waits for them), desktop (True"
                  + " when its image has a desktop), snapshots (names) and host (the cluster member"
                  + " it runs on; empty on a standalone server). Example:"
                  + " instance.get(sandbox=sb[\"name\"], name=\"web\")[\"nics\"][0][\"addresses\"]",
              "ip",
              "address",
              "ip address",
              "nic",
              "mac",
              "status",
              "details"),
          doc(
              "instance.delete",
              "Deletes an instance and its snapshots. "
                  + REF
                  + " Output: empty dict. Example: instance.delete(sandbox=sb[\"name\"],"
                  + " name=\"web\")",
              "remove",
              "destroy"),
          doc(
              "instance.exec",
              "Runs a command with sh -c in a running instance and waits for it. "
                  + REF
                  + " command: the shell command line (pipes and && work). timeout_seconds: kill"
                  + " the command after this many seconds (then timed_out is True and exit_code"
                  + " -1); absent or 0 waits as long as the execution may. user: 'root' (default)"
                  + " or a numeric UID. cwd: absolute working directory, must exist; default the"
                  + " instance's. stdin: text fed to the command. env: newline-separated KEY=VALUE"
                  + " lines, e.g. \"A=1\\nB=2\" (not a dict; build one with"
                  + " \"\\n\".join([\"%s=%s\" % (k, v) for k, v in d.items()])). Output: exit_code,"
                  + " stdout, stderr, stdout_truncated and stderr_truncated (a stream over 64 KiB"
                  + " keeps its first 16 KiB and last 48 KiB around one marker line), timed_out."
                  + " background: True starts the command under a supervisor in the instance and"
                  + " returns at once with process (its id, for instance.process.*); Linux"
                  + " containers only. Example: instance.exec(sandbox=sb[\"name\"], name=\"web\","
                  + " command=\"uname -a\")[\"stdout\"]",
              "run",
              "exec",
              "command",
              "shell",
              "script",
              "bash",
              "execute"),
          doc(
              "instance.process.list",
              "Lists the background processes of an instance (Linux containers), running and"
                  + " ended, oldest first; the most recent ended ones are kept. "
                  + REF
                  + " Output: items, each as instance.process.get describes it. Example:"
                  + " instance.process.list(sandbox=sb[\"name\"], name=\"web\")[\"items\"]",
              "jobs",
              "ps",
              "running commands"),
          doc(
              "instance.process.get",
              "Describes one background process. "
                  + PROCESS_REF
                  + " Output: process; command (its first 300 characters); status ('running' or"
                  + " 'ended'); exit_code, reason and ended_at once ended: reason is 'exited',"
                  + " 'killed' (signal says which), 'oom_killed' (the instance ran out of memory),"
                  + " 'timed_out' (its timeout_seconds passed) or 'lost' (its supervisor is gone);"
                  + " started_at and ended_at (RFC 3339 UTC); stdout_bytes and stderr_bytes kept so"
                  + " far (each stream keeps at most instance.background_output_mb MiB). Example:"
                  + " instance.process.get(sandbox=sb[\"name\"], name=\"web\","
                  + " process=p)[\"status\"]",
              "exit status",
              "job status",
              "out of memory"),
          doc(
              "instance.process.output",
              "Reads a background process's output from byte offsets, while it runs or after."
                  + " "
                  + PROCESS_REF
                  + " stdout_offset and stderr_offset: where to start in each stream (default 0)."
                  + " max_bytes: the most of each stream to return, 1 to 32768 (default 16384)."
                  + " Output: stdout and stderr (text, never half a UTF-8 character);"
                  + " stdout_next_offset and stderr_next_offset: pass them back to read on; more:"
                  + " True when more output is kept already; status ('running' or 'ended')."
                  + " Example: o = instance.process.output(sandbox=sb[\"name\"], name=\"web\","
                  + " process=p, stdout_offset=o[\"stdout_next_offset\"])",
              "logs",
              "tail",
              "follow output",
              "stream"),
          doc(
              "instance.process.wait",
              "Waits until a background process ends or timeout_seconds pass, then describes it"
                  + " (status says which). "
                  + PROCESS_REF
                  + " timeout_seconds: 1 to 900 (default 30). Output: as instance.process.get:"
                  + " process, command, status, exit_code, reason, signal, started_at, ended_at,"
                  + " stdout_bytes, stderr_bytes. Example:"
                  + " instance.process.wait(sandbox=sb[\"name\"], name=\"web\", process=p,"
                  + " timeout_seconds=120)[\"exit_code\"]",
              "join",
              "await",
              "until finished"),
          doc(
              "instance.process.kill",
              "Sends a signal to a background process and every process it started (its process"
                  + " group). "
                  + PROCESS_REF
                  + " signal: 'TERM' (default), 'KILL', 'INT', 'HUP', 'QUIT', 'USR1', 'USR2', 'STOP'"
                  + " or 'CONT'. An ended process is refused. Output: as instance.process.get right"
                  + " after the signal (process, command, status, exit_code, reason, signal,"
                  + " started_at, ended_at, stdout_bytes, stderr_bytes). Example:"
                  + " instance.process.kill(sandbox=sb[\"name\"], name=\"web\", process=p)",
              "stop",
              "terminate",
              "cancel job"),
          doc(
              "instance.start",
              "Starts a stopped instance and waits until it runs. "
                  + REF
                  + " force: ignored for start. Output: status ('Running'). Example:"
                  + " instance.start(sandbox=sb[\"name\"], name=\"web\")",
              "boot",
              "power on",
              "resume"),
          doc(
              "instance.stop",
              "Stops an instance and waits until it is stopped. "
                  + REF
                  + " force: True kills it instead of a clean shutdown (default False). Output:"
                  + " status ('Stopped'). Example: instance.stop(sandbox=sb[\"name\"],"
                  + " name=\"web\")",
              "shutdown",
              "power off",
              "halt"),
          doc(
              "instance.restart",
              "Restarts an instance and waits until it runs again. "
                  + REF
                  + " force: True kills it instead of a clean shutdown (default False). Output:"
                  + " status ('Running'). Example: instance.restart(sandbox=sb[\"name\"],"
                  + " name=\"web\")",
              "reboot"),
          doc(
              "instance.wait",
              "Waits until an instance reaches a stage. "
                  + REF
                  + " until: one of 'running' (started), 'agent' (commands can run), 'network' (it"
                  + " has an IP address), 'desktop' (its desktop Driver answers; desktop images"
                  + " only), 'stopped'; any other value is refused with this list. timeout_seconds:"
                  + " give up after this many seconds (default: as long as the execution may)."
                  + " Output: status (the instance's status) and elapsed_seconds. Example:"
                  + " instance.wait(sandbox=sb[\"name\"], name=\"web\", until=\"network\")",
              "ready",
              "boot",
              "until",
              "ip",
              "network ready"),
          doc(
              "instance.file.read",
              "Reads a file from an instance as text (UTF-8). "
                  + REF
                  + " path: absolute path in the instance. offset: the byte to start at (default"
                  + " 0; Incus sandboxes only). length (or its older name max_bytes): read at most"
                  + " this many bytes, default 65536, at most 1048576; truncated is True when the"
                  + " file has more after what was returned. Output: content, truncated, size (the"
                  + " whole file's bytes; -1 where the platform does not say) and next_offset (the"
                  + " offset to read on from). Files of any size or binary files:"
                  + " instance.file.download_url. Example: instance.file.read(sandbox=sb[\"name\"],"
                  + " name=\"web\", path=\"/var/log/app.log\", offset=65536)[\"content\"]",
              "file",
              "copy",
              "download",
              "cat",
              "get file",
              "from container"),
          doc(
              "instance.file.list",
              "Lists a directory of an instance (Incus sandboxes). "
                  + REF
                  + " path: absolute path of the directory. Output: items sorted by name, each"
                  + " name, type ('file', 'directory', 'symlink'), size (bytes; 0 for non-files),"
                  + " mode (octal string such as '0644'), uid, gid and modified (RFC 3339 UTC);"
                  + " total: how many entries the directory has; truncated: True when only the"
                  + " first 1000 are listed. Example: instance.file.list(sandbox=sb[\"name\"],"
                  + " name=\"web\", path=\"/var/log\")[\"items\"]",
              "ls",
              "list files",
              "directory listing",
              "folder"),
          doc(
              "instance.file.stat",
              "Describes one path of an instance without reading it (Incus sandboxes). "
                  + REF
                  + " path: absolute path. Output: name, type ('file', 'directory', 'symlink'),"
                  + " size in bytes, mode (octal string), uid, gid and modified (RFC 3339 UTC). A"
                  + " missing path is an error. Example:"
                  + " instance.file.stat(sandbox=sb[\"name\"], name=\"web\","
                  + " path=\"/root/data.bin\")[\"size\"]",
              "stat",
              "file size",
              "exists",
              "metadata"),
          doc(
              "instance.file.upload_url",
              "Returns a short-lived, single-use URL that takes a file of any size into an"
                  + " instance, so its bytes never pass through the model (Incus sandboxes). "
                  + REF
                  + " path: absolute path of the file to create or replace; its directory must"
                  + " exist. mode: octal permission string such as \"0644\" (default: the"
                  + " platform's). Output: url, method ('PUT'), expires_at (RFC 3339 UTC) and"
                  + " max_bytes (the largest body accepted). Send the body with"
                  + " `curl -T file -H \"Authorization: Bearer <your token>\" <url>`: the same"
                  + " identity's bearer token is required (a server without tokens, such as one"
                  + " on loopback, needs none), the URL works once and expires after a"
                  + " few minutes. Example: instance.file.upload_url(sandbox=sb[\"name\"],"
                  + " name=\"web\", path=\"/root/data.tar\")[\"url\"]",
              "upload",
              "large file",
              "binary file",
              "put file",
              "copy file into",
              "url"),
          doc(
              "instance.file.download_url",
              "Returns a short-lived, single-use URL that serves a file of any size from an"
                  + " instance, so its bytes never pass through the model (Incus sandboxes). "
                  + REF
                  + " path: absolute path of a regular file. Output: url, method ('GET'),"
                  + " expires_at (RFC 3339 UTC) and max_bytes (0: no limit). Fetch it with"
                  + " `curl -H \"Authorization: Bearer <your token>\" -o out <url>`: the same"
                  + " identity's bearer token is required (a server without tokens, such as one"
                  + " on loopback, needs none), the URL works once and expires after a"
                  + " few minutes. Example: instance.file.download_url(sandbox=sb[\"name\"],"
                  + " name=\"web\", path=\"/root/build.tar\")[\"url\"]",
              "download",
              "large file",
              "binary file",
              "get file",
              "fetch file",
              "url"),
          doc(
              "instance.file.write",
              "Writes (creates or replaces) a text file in an instance. "
                  + REF
                  + " path: absolute path; its directory must exist. content: the text, at most"
                  + " 65536 bytes (UTF-8); larger files: instance.exec with stdin. mode: octal"
                  + " permission string such as \"0644\" or \"755\" (at most 07777); default: the"
                  + " platform's."
                  + " Output: bytes (how many were written). Example:"
                  + " instance.file.write(sandbox=sb[\"name\"], name=\"web\", path=\"/root/a.txt\","
                  + " content=\"hi\\n\")",
              "file",
              "copy",
              "upload",
              "put file",
              "save file",
              "into container"),
          doc(
              "instance.snapshot.create",
              "Takes a snapshot of an instance's disk state. "
                  + REF
                  + " snapshot: the snapshot's name, "
                  + NAME
                  + ". Output: empty dict. Example: instance.snapshot.create(sandbox=sb[\"name\"],"
                  + " name=\"web\", snapshot=\"s1\")",
              "backup",
              "checkpoint",
              "save state"),
          doc(
              "instance.snapshot.restore",
              "Recreates the instance of the same name from one of its snapshots and starts it."
                  + " Its other snapshots are deleted, and its MAC address and DHCP lease may"
                  + " change. "
                  + REF
                  + " snapshot: the snapshot's name (instance.snapshot.list). Output: empty dict."
                  + " Example: instance.snapshot.restore(sandbox=sb[\"name\"], name=\"web\","
                  + " snapshot=\"s1\")",
              "rollback",
              "revert",
              "checkpoint"),
          doc(
              "instance.snapshot.delete",
              "Deletes one snapshot of an instance. "
                  + REF
                  + " snapshot: the snapshot's name. Output: empty dict. Example:"
                  + " instance.snapshot.delete(sandbox=sb[\"name\"], name=\"web\", snapshot=\"s1\")",
              "remove snapshot",
              "checkpoint"),
          doc(
              "instance.snapshot.list",
              "Lists an instance's snapshots. "
                  + REF
                  + " Output: items, each with name and created_at (RFC 3339 UTC). Example:"
                  + " instance.snapshot.list(sandbox=sb[\"name\"], name=\"web\")[\"items\"]",
              "snapshots",
              "checkpoints"),
          doc(
              "instance.publish",
              "Publishes an instance's disk as an image usable by instance.create in the same"
                  + " sandbox only (it goes away with the sandbox). Stop the instance first for a"
                  + " consistent image. "
                  + REF
                  + " image: the new image's name, "
                  + NAME
                  + ". Output: image (the name to pass to instance.create). Example:"
                  + " instance.publish(sandbox=sb[\"name\"], name=\"web\", image=\"golden\")",
              "image",
              "template",
              "save",
              "golden image",
              "clone"),
          doc(
              "net.create",
              "Creates a private network (a LAN/subnet) in a sandbox, for instances to talk to each"
                  + " other. sandbox: the sandbox's name. name: "
                  + NAME
                  + " ('default' is taken). kind: 'bridge' or 'ovn'; default: the sandbox's own"
                  + " fabric (its default network's kind); the other kind is refused. cidr: IPv4"
                  + " subnet like \"10.210.5.0/24\"; default: one allocated from the server's pool."
                  + " dhcp, nat, dns: booleans, default True for ovn and False for bridge;"
                  + " instances get addresses only with dhcp=True (a bridge without it gives none:"
                  + " pass dhcp=True). nat=False"
                  + " networks are unreachable from outside the sandbox (attach a router instance or"
                  + " use net.peer). Output: name, kind, cidr, gateway. Then put instances on it:"
                  + " instance.create(network=...) or net.attach. Example:"
                  + " net.create(sandbox=sb[\"name\"], name=\"lan\")",
              "network",
              "subnet",
              "lan",
              "private network",
              "vlan",
              "between containers"),
          doc(
              "net.list",
              "Lists a sandbox's networks. sandbox: the sandbox's name. Output: items, each with"
                  + " name, kind ('bridge' or 'ovn'), cidr and gateway. Example:"
                  + " net.list(sandbox=sb[\"name\"])[\"items\"]",
              "network",
              "subnet",
              "lan"),
          doc(
              "net.get",
              "Gets one network of a sandbox. sandbox: the sandbox's name. name: the network's"
                  + " name ('default' for the sandbox's own). Output: name, kind, cidr, gateway."
                  + " Example: net.get(sandbox=sb[\"name\"], name=\"default\")[\"cidr\"]",
              "network",
              "subnet",
              "cidr",
              "gateway"),
          doc(
              "net.delete",
              "Deletes a network; instances attached to it must be detached or deleted first."
                  + " sandbox: the sandbox's name. name: the network's name ('default' cannot be"
                  + " deleted). Output: empty dict. Example: net.delete(sandbox=sb[\"name\"],"
                  + " name=\"lan\")",
              "network",
              "remove",
              "subnet"),
          doc(
              "net.attach",
              "Adds a NIC on a network to an instance. sandbox: the sandbox's name. instance: the"
                  + " instance's name. network: the network's name. nic: the NIC's name, default"
                  + " the next free ethN. ip: static IPv4 address inside the network's cidr,"
                  + " default DHCP. mac: MAC address like \"00:16:3e:aa:bb:cc\", default generated."
                  + " Output: nic (its name) and mac. Example: net.attach(sandbox=sb[\"name\"],"
                  + " instance=\"web\", network=\"lan\")",
              "network",
              "nic",
              "interface",
              "connect",
              "ip",
              "address"),
          doc(
              "net.detach",
              "Removes a NIC from an instance. sandbox: the sandbox's name. instance: the"
                  + " instance's name. nic: the NIC's name (instance.get lists them). Output: empty"
                  + " dict. Example: net.detach(sandbox=sb[\"name\"], instance=\"web\","
                  + " nic=\"eth1\")",
              "network",
              "nic",
              "disconnect"),
          doc(
              "net.impair",
              "Applies network impairment (Linux tc netem) to a NIC of a Linux instance, or clears"
                  + " it. sandbox, instance: names. nic: the NIC's name, e.g. \"eth0\"."
                  + " latency_ms: added delay in milliseconds. jitter_ms: delay variation in"
                  + " milliseconds (needs latency_ms). loss_percent: packet loss, 0..100."
                  + " rate_mbit: bandwidth cap in Mbit/s. clear: True removes every impairment. All"
                  + " default 0 (off); at least one is required. Output: empty dict. Example:"
                  + " net.impair(sandbox=sb[\"name\"], instance=\"web\", nic=\"eth0\","
                  + " latency_ms=100)",
              "network",
              "latency",
              "packet loss",
              "bandwidth",
              "slow network"),
          doc(
              "net.peer",
              "Routes between two OVN networks of the same sandbox (both directions). sandbox: the"
                  + " sandbox's name. network, peer: the two networks' names (kind 'ovn' only)."
                  + " Output: empty dict. Example: net.peer(sandbox=sb[\"name\"], network=\"a\","
                  + " peer=\"b\")",
              "network",
              "route",
              "connect networks"),
          doc(
              "net.acl.add",
              "Adds a firewall rule to an OVN network. sandbox, network: names. direction:"
                  + " 'ingress' or 'egress'. action: 'allow', 'drop' or 'reject'. protocol: 'tcp',"
                  + " 'udp' or 'icmp'; default any. src, dst: IP address or CIDR, default any; an"
                  + " allow rule needs dst, outside the server's protected ranges. port:"
                  + " destination port such as \"80\", tcp/udp only. Output:"
                  + " rule (its id, for net.acl.remove). Example: net.acl.add(sandbox=sb[\"name\"],"
                  + " network=\"lan\", direction=\"egress\", action=\"drop\", protocol=\"tcp\","
                  + " port=\"22\")",
              "firewall",
              "acl",
              "block",
              "allow"),
          doc(
              "net.acl.remove",
              "Removes a firewall rule from an OVN network. sandbox, network: names. rule: the id"
                  + " net.acl.add returned. Output: empty dict. Example:"
                  + " net.acl.remove(sandbox=sb[\"name\"], network=\"lan\", rule=r[\"rule\"])",
              "firewall",
              "acl"),
          doc(
              "net.forward",
              "Exposes an instance's port on an address reachable from outside the sandbox (OVN"
                  + " networks). sandbox, network: names. instance: the instance's name. port: the"
                  + " instance's port, 1..65535. listen_port: the outside port, default the same."
                  + " protocol: 'tcp' (default) or 'udp'. Output: address and port to connect to."
                  + " Example: net.forward(sandbox=sb[\"name\"], network=\"lan\", instance=\"web\","
                  + " port=80)",
              "port forward",
              "expose",
              "publish port",
              "ip",
              "address"),
          doc(
              "net.inspect",
              "Shows what OVN enforces for a network: its logical switch, ACL rules and ports."
                  + " sandbox, network: names (kind 'ovn' only). Output: network, logical_switch,"
                  + " rules (acl, id, priority, direction, action, match) and ports (name, type,"
                  + " addresses). Example: net.inspect(sandbox=sb[\"name\"],"
                  + " network=\"lan\")[\"rules\"]",
              "firewall",
              "debug network",
              "ovn"),
          doc(
              "desktop.info",
              "Reports whether an instance's desktop Driver is ready. sandbox: the sandbox's name."
                  + " instance (or name): the instance's name; its image must have a desktop"
                  + " (image.list(desktop=True)). Output: ready, os, driver_version and tools (empty"
                  + " until ready), vnc (a VNC address for people; absent when none). Example:"
                  + " desktop.info(sandbox=sb[\"name\"], instance=\"desk\")[\"ready\"]",
              "gui",
              "screen",
              "vnc",
              "desktop"),
          doc(
              "desktop.enable",
              "Checks that the desktop Driver answers in the guest's graphical session. sandbox:"
                  + " the sandbox's name. instance (or name): a running instance whose image has a"
                  + " desktop. Output: ready. Example: desktop.enable(sandbox=sb[\"name\"],"
                  + " instance=\"desk\")",
              "gui",
              "desktop"),
          doc(
              "desktop.call",
              "Calls one native Driver tool (click, type, get_desktop_state, ...; desktop.info lists"
                  + " them). sandbox: the sandbox's name. instance (or name): a running desktop"
                  + " instance. tool: the tool's name. args: a JSON object as a string, default"
                  + " \"{}\" (use json.encode). Output: ok, summary, result (JSON text, read with"
                  + " json.decode) and screenshot_url (absent when the tool took none). Example:"
                  + " desktop.call(sandbox=sb[\"name\"], instance=\"desk\","
                  + " tool=\"get_desktop_state\")",
              "gui",
              "click",
              "type text",
              "mouse",
              "keyboard"),
          doc(
              "desktop.screenshot",
              "Takes a screenshot of the desktop, or of one window with pid and window_id. sandbox:"
                  + " the sandbox's name. instance (or name): a running desktop instance. pid,"
                  + " window_id: both or neither. max_dimension: scale the image so its longer side"
                  + " is at most this many pixels; default 0 (full size). Output: url (a PNG),"
                  + " width and height in pixels, scale (image pixels per Driver coordinate)."
                  + " Example: desktop.screenshot(sandbox=sb[\"name\"], instance=\"desk\")[\"url\"]",
              "screen",
              "capture",
              "image",
              "picture",
              "gui"));

  private CapabilityDocs() {}

  private static Map.Entry<String, Doc> doc(String name, String description, String... terms) {
    return Map.entry(name, new Doc(description, List.of(terms)));
  }

  /**
   * The capability's doc; every capability agentcompute registers has one (CapabilityDocsTest), a
   * name without one gets none (CodeMode then describes it by its summary).
   */
  public static Doc of(String capability) {
    ComputeConfig d = ComputeConfig.defaults();
    Doc doc = raw(capability);
    return new Doc(
        fill(
            doc.description(),
            unlessConfigured(d.ttl().defaultTtl(), "sandbox.default_ttl_minutes"),
            unlessConfigured(d.ttl().maxTtl(), "sandbox.max_ttl_minutes"),
            unlessConfigured(d.quotas().maxLifetime(), "sandbox.max_lifetime_minutes")),
        doc.searchTerms());
  }

  /**
   * The capability's doc with this server's configured values where the text names a limit
   * ("default 60 minutes on this server"), so that an agent learns them from describe_api.
   */
  public static Doc of(String capability, ComputeConfig config) {
    Doc doc = raw(capability);
    return new Doc(
        fill(
            doc.description(),
            onThisServer(config.ttl().defaultTtl(), "sandbox.default_ttl_minutes"),
            onThisServer(config.ttl().maxTtl(), "sandbox.max_ttl_minutes"),
            onThisServer(config.quotas().maxLifetime(), "sandbox.max_lifetime_minutes")),
        doc.searchTerms());
  }

  private static Doc raw(String capability) {
    return BY_NAME.getOrDefault(capability, new Doc("", List.of()));
  }

  private static String unlessConfigured(Duration value, String key) {
    return key + ", " + value.toMinutes() + " minutes unless configured";
  }

  private static String onThisServer(Duration value, String key) {
    return value.toMinutes() + " minutes on this server, " + key;
  }

  private static String fill(String text, String defaultTtl, String maxTtl, String maxLifetime) {
    return text.replace(DEFAULT_TTL, defaultTtl)
        .replace(MAX_TTL, maxTtl)
        .replace(MAX_LIFETIME, maxLifetime);
  }

  /** Whether the table has this capability (tests). */
  static boolean has(String capability) {
    return BY_NAME.containsKey(capability);
  }
}
