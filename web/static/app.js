// SPDX-License-Identifier: GPL-2.0
// Small enhancements only: every page works without this file.
'use strict';

// Tables with class "sortable": click a header to sort by that column.
function sortTable(th) {
	const table = th.closest('table');
	const body = table.tBodies[0];
	const col = Array.prototype.indexOf.call(th.parentNode.children, th);
	const dir = th.dataset.dir === 'asc' ? 'desc' : 'asc';
	const rows = Array.from(body.rows);
	const key = (r) => {
		const c = r.cells[col];
		const v = c ? (c.dataset.sort || c.textContent.trim()) : '';
		const n = parseFloat(v);
		return isNaN(n) ? v.toLowerCase() : n;
	};
	rows.sort((a, b) => {
		const x = key(a), y = key(b);
		const r = x < y ? -1 : x > y ? 1 : 0;
		return dir === 'asc' ? r : -r;
	});
	th.parentNode.querySelectorAll('th').forEach((h) => delete h.dataset.dir);
	th.dataset.dir = dir;
	rows.forEach((r) => body.appendChild(r));
}

// An input with data-filter="TABLE-ID" hides the rows that do not match.
function filterRows(input) {
	const table = document.getElementById(input.dataset.filter);
	const q = input.value.toLowerCase();
	if (!table)
		return;
	Array.from(table.tBodies[0].rows).forEach((r) => {
		r.hidden = q && !r.textContent.toLowerCase().includes(q);
	});
}

// On the pick page, the name typed once fills every claim form.
function shareClaimer(input) {
	try { localStorage.setItem('bkl-claimer', input.value); } catch (e) { }
	document.querySelectorAll('form.claim input[name=by]').forEach((f) => {
		if (f !== input)
			f.value = input.value;
	});
}

document.addEventListener('DOMContentLoaded', () => {
	document.querySelectorAll('table.sortable th').forEach((th) => {
		th.classList.add('sortable');
		th.title = 'sort';
		th.addEventListener('click', () => sortTable(th));
	});
	document.querySelectorAll('input[data-filter]').forEach((i) => {
		i.hidden = false;
		i.addEventListener('input', () => filterRows(i));
	});
	const who = document.getElementById('claimer');
	if (who) {
		let saved = '';
		try { saved = localStorage.getItem('bkl-claimer') || ''; } catch (e) { }
		if (saved && !who.value)
			who.value = saved;
		who.addEventListener('input', () => shareClaimer(who));
		shareClaimer(who);
	}
});
