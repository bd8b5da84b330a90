/*
 * Recursion stops the search, it does not loop: a function calling
 * itself, and two calling each other, on the way to a sleep.  ping(3)
 * does not sleep itself (n == 7 is false), but pong() calls ping() again
 * with a value it does not know, which may.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void msleep(unsigned int msecs);

struct node {
	struct node *left, *right;
	int busy;
};

static void walk(struct node *n)
{
	if (!n)
		return;
	walk(n->left);
	if (n->busy)
		msleep(1);
	walk(n->right);
}

static void ping(int n);

static void pong(int n)
{
	if (n)
		ping(n - 1);
}

static void ping(int n)
{
	pong(n);
	if (n == 7)
		msleep(n);
}

int tree_walk(struct node *root)
{
	lock_kernel();
	walk(root);
	ping(3);
	unlock_kernel();
	return 0;
}

/*
 * check-name: recursion stops the chain search
 * check-command: chains
 * check-output-start
 * recursion.c:46: warning: 'tree_walk' may sleep with the BKL held (sleep):
 *   tree_walk  recursion.c:46
 *     walk  recursion.c:24
 *       msleep
 * recursion.c:47: warning: 'tree_walk' may sleep with the BKL held (sleep):
 *   tree_walk  recursion.c:47
 *     ping  recursion.c:38
 *       pong  recursion.c:33
 *         ping  recursion.c:40
 *           msleep
 * check-output-end
 */
