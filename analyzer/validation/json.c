/*
 * --json: the stable contract.  Arrays of objects with exactly the keys
 * {"file","line","function","kind"} (chains: "class" and "path"),
 * ordered by file, line, function, kind; [] when there is nothing.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void ssleep(unsigned int seconds);

struct ops {
	int (*ioctl)(int cmd);
};

static int foo_ioctl(int cmd)
{
	ssleep(1);
	return cmd;
}

static const struct ops foo_ops = { .ioctl = foo_ioctl };

int dispatch(const struct ops *ops, int cmd)
{
	int ret;

	lock_kernel();
	ret = ops->ioctl(cmd);
	if (ret < 0)
		return ret;
	unlock_kernel();
	return ret;
}

void drop(void)
{
	unlock_kernel();
}

/*
 * check-name: --json output of sites, imbalance and chains
 * check-command: sites --json
 * check-output-start
 * [
 *   {"file": "json.c", "line": 16, "function": "foo_ioctl", "kind": "implicit", "entry": false, "edge": "by-type", "candidates": 1},
 *   {"file": "json.c", "line": 28, "function": "dispatch", "kind": "lock"},
 *   {"file": "json.c", "line": 32, "function": "dispatch", "kind": "unlock"},
 *   {"file": "json.c", "line": 38, "function": "drop", "kind": "unlock"}
 * ]
 * check-output-end
 * check-command: imbalance --json
 * check-output-start
 * [
 *   {"file": "json.c", "line": 31, "function": "dispatch", "kind": "return-held"},
 *   {"file": "json.c", "line": 38, "function": "drop", "kind": "unlock-unheld"}
 * ]
 * check-output-end
 * check-command: chains --json
 * check-output-start
 * [
 *   {"file": "json.c", "line": 18, "function": "foo_ioctl", "class": "sleep", "path": ["foo_ioctl","ssleep"], "by_type": 1, "origin": "by-type", "built": null, "edges": [{"edge": "direct", "candidates": 1}]},
 *   {"file": "json.c", "line": 29, "function": "dispatch", "class": "sleep", "path": ["dispatch","foo_ioctl","ssleep"], "by_type": 1, "origin": "held", "built": null, "edges": [{"edge": "by-type", "candidates": 1}, {"edge": "direct", "candidates": 1}]}
 * ]
 * check-output-end
 */
