#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='the dashboard in a real headless Chromium: overview -> subsystem -> driver -> claim'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-web.sh"

# Playwright drives Debian's chromium; playwright-core (no browser download)
# is installed into the cache by make setup (scripts/setup.sh), never into
# the repository.
PW_DIR=$BKL_REAL_CACHE/playwright
ARTIFACTS=$BKL_REAL_CACHE/artifacts/web-e2e
CHROMIUM=${BKL_CHROMIUM:-/usr/bin/chromium}

if ! [ -x "$CHROMIUM" ]; then
	test_missing_prereq BROWSER "no $CHROMIUM ('make setup' installs chromium)"
elif ! command -v node >/dev/null; then
	test_missing_prereq BROWSER "no node in PATH ('make setup' installs nodejs)"
elif ! command -v curl >/dev/null; then
	test_missing_prereq BROWSER "no curl in PATH ('make setup' installs curl)"
elif ! [ -f "$PW_DIR/node_modules/playwright-core/package.json" ]; then
	test_missing_prereq BROWSER "no playwright-core in $PW_DIR ('make setup' installs it)"
else
	test_set_prereq BROWSER
fi

BKL_TREE=$PWD/fx/tree BKL_REPO=$PWD/fx/repo BKL_DB=$PWD/fx/bkl.db
export BKL_TREE BKL_REPO BKL_DB

server_pid=
stop_server() {
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null
		wait "$server_pid" 2>/dev/null
		server_pid=
	fi
}
trap stop_server EXIT INT TERM

cat >e2e.js <<'EOF'
// The newcomer's path through the dashboard, with a screenshot at each page.
const { chromium } = require(process.env.PW_DIR + '/node_modules/playwright-core');
const fs = require('fs');
const os = require('os');
const path = require('path');

const base = process.env.BASE, shots = process.env.ARTIFACTS;
const who = 'E2E Tester <e2e@example.org>';
const fail = (msg) => { throw new Error(msg); };

(async () => {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bkl-e2e-'));
	const ctx = await chromium.launchPersistentContext(profile, {
		executablePath: process.env.CHROMIUM, headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync'],
		viewport: { width: 1280, height: 900 },
	});
	const errors = [];
	try {
		const page = ctx.pages()[0] || await ctx.newPage();
		page.setDefaultTimeout(20000);
		page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
		page.on('pageerror', (e) => errors.push(String(e)));
		page.on('requestfailed', (r) => errors.push('failed: ' + r.url()));
		page.on('response', (r) => { if (r.status() >= 400) errors.push(r.status() + ' ' + r.url()); });

		await page.goto(base + '/');
		const h1 = await page.textContent('h1');
		if (!h1.includes('where the campaign stands')) fail('overview h1: ' + h1);
		if (!(await page.isVisible('svg.chart'))) fail('no burn-down chart');
		const left = await page.textContent('.card.big .n');
		if (left.trim() !== process.env.UNDER) fail('drivers under the BKL: ' + left);
		await page.screenshot({ path: shots + '/overview.png', fullPage: true });
		console.log('overview ok');

		await page.click('table#subs a:text("CHAR and MISC DRIVERS")');
		await page.waitForSelector('h1:text("CHAR and MISC DRIVERS")');
		await page.screenshot({ path: shots + '/subsystem.png', fullPage: true });
		console.log('subsystem ok');

		await page.click('table#drivers a:text-is("nvram")');
		await page.waitForSelector('h1:has-text("nvram")');
		if (!(await page.isVisible('.chain pre.src span.hit'))) fail('no source excerpt');
		await page.screenshot({ path: shots + '/driver.png', fullPage: true });
		console.log('driver ok');

		await page.click('header nav a:text("pick a driver")');
		await page.waitForSelector('h1:text("Pick a driver")');
		// the JavaScript enhancement: one name for every claim form
		await page.fill('#claimer', who);
		const row = page.locator('tr#nvram');
		if ((await row.locator('input[name=by]').inputValue()) !== who) fail('claimer not shared');
		await page.screenshot({ path: shots + '/pick.png', fullPage: true });
		await Promise.all([page.waitForNavigation(), row.locator('button').click()]);
		if (!page.url().endsWith('/driver/nvram')) fail('after the claim: ' + page.url());
		const status = await page.textContent('h1 .status');
		if (status !== 'claimed') fail('status after the claim: ' + status);
		await page.screenshot({ path: shots + '/claimed.png', fullPage: true });
		console.log('claim ok');

		if (errors.length) fail('browser errors:\n' + errors.join('\n'));
	} finally {
		await ctx.close();
		fs.rmSync(profile, { recursive: true, force: true });
	}
})().catch((e) => { console.error(String(e)); process.exit(1); });
EOF

test_expect_success 'setup: a small campaign' '
	web_fixture "$PWD/fx"
'

start_server() {
	bkl serve --port 0 >serve.out 2>serve.err &
	server_pid=$!
	i=0
	while ! grep -q "listening on" serve.out 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 "$server_pid" 2>/dev/null; then
			cat serve.err
			return 1
		fi
		sleep 0.1
	done
	BASE=$(sed -n 's|.*listening on \(http://[^ ]*\)/ .*|\1|p' serve.out)
}
# Started here, so that the server is our child; one that does not start
# fails the next test (our failure, not the machine's).
BASE=
test_have_prereq BROWSER && start_server >serve.start 2>&1

test_expect_success BROWSER 'bkl serve starts for the browser' '
	cat serve.start &&
	test -n "$BASE" &&
	kill -0 "$server_pid"
'

test_expect_success BROWSER 'overview, subsystem, driver, claim, in Chromium' '
	rm -rf "$ARTIFACTS" && mkdir -p "$ARTIFACTS" &&
	under=$(bkl report --format json | sed -n "s/.*\"under_bkl\": \([0-9]*\),.*/\1/p" | head -1) &&
	UNDER=$under BASE=$BASE PW_DIR=$PW_DIR ARTIFACTS=$ARTIFACTS CHROMIUM=$CHROMIUM \
		timeout 180 node e2e.js >e2e.out 2>&1 || { cat e2e.out; false; } &&
	cat e2e.out &&
	grep "^claim ok$" e2e.out &&
	for f in overview subsystem driver pick claimed; do
		test -s "$ARTIFACTS/$f.png" && echo "screenshot: $ARTIFACTS/$f.png" || return 1
	done
'

test_expect_success BROWSER 'the claim made in the browser is in the campaign' '
	bkl status nvram >out &&
	grep "^holder: *E2E Tester <e2e@example.org>$" out &&
	grep "^status: *claimed" out &&
	grep "	nvram	claim	claimed	E2E Tester <e2e@example.org>	" fx/repo/drivers-audit/campaign.log
'
stop_server

test_done
