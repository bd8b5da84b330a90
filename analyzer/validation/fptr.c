/*
 * A call through a struct member with the BKL held reaches every
 * function stored in that member of that struct: by designated, nested
 * or positional initializers and by assignments.  Other members, and the
 * same member name in another struct, are not reached.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);

struct widget;
struct widget_ops {
	int (*start)(struct widget *);
	int (*stop)(struct widget *);
};
struct widget {
	const struct widget_ops *ops;
	struct widget_ops own;
};
struct gadget_ops {
	int (*start)(struct widget *);
};
struct board {
	int id;
	struct widget_ops wops[2];
};

static int a_start(struct widget *w) { return 0; }
static int a_stop(struct widget *w) { return 0; }
static int b_start(struct widget *w) { return 1; }
static int c_start(struct widget *w) { return 2; }
static int d_start(struct widget *w) { return 3; }
static int g_start(struct widget *w) { return 4; }

static const struct widget_ops a_ops = { .start = a_start, .stop = a_stop };
static const struct widget_ops b_ops = { b_start };
static struct board board = { .id = 1, .wops[1] = { .start = c_start } };
static const struct gadget_ops g_ops = { .start = g_start };

void setup(struct widget *w)
{
	w->own.start = d_start;
}

int run(struct widget *w)
{
	int ret;

	lock_kernel();
	ret = w->ops->start(w);
	unlock_kernel();
	return ret + w->own.stop(w);
}

/*
 * check-name: function pointers by struct and member
 * check-command: sites
 * check-output-start
 * fptr.c:29: warning: 'a_start' runs with the BKL held: widget_ops.start called from run (fptr.c:51): by type, one of 4
 * fptr.c:31: warning: 'b_start' runs with the BKL held: widget_ops.start called from run (fptr.c:51): by type, one of 4
 * fptr.c:32: warning: 'c_start' runs with the BKL held: widget_ops.start called from run (fptr.c:51): by type, one of 4
 * fptr.c:33: warning: 'd_start' runs with the BKL held: widget_ops.start called from run (fptr.c:51): by type, one of 4
 * fptr.c:50: warning: lock_kernel() in 'run'
 * fptr.c:52: warning: unlock_kernel() in 'run'
 * check-output-end
 */
