#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-citations.sh [PATCHES-DIR]: every file:line a push-down's
# changelog cites, read in the tree as it stands once that patch applies
# (the pristine 6.1 in $BKL_CACHE, the series applied one patch at a time
# in a scratch copy of hard links).  A citation is right when its line
# holds what it names:
#   registered by misc_register() at F:L   a call of misc_register (or
#                                          of the name without its
#                                          leading underscores) that
#                                          names the table or the
#                                          variable holding it, where a
#                                          registration line in F does
#   called by chrdev_call_open() at F:L    a call through ->open/->fasync,
#                                          or of the entry point itself
#   stored in cdev.ops at F:L              the member (ops) on the line
# Prints each wrong one, then "N citations in M push-downs, K wrong";
# exits 1 when K > 0.  With --fix, a wrong line number is replaced by the
# line nearest to it that holds what the citation names (for "called
# by", within that function), in the patch's changelog; what it cannot
# place stays wrong.  t3040 runs it on the committed series.
set -e
fix=
if [ "$1" = --fix ]; then
	fix=1
	shift
fi
. "$(dirname "$0")/series-lib.sh"

cd "$tmp/tree"
grep -v '^#\|^$' "$patches/series" | while read -r p; do
	patch -p1 -s -N -r - <"$patches/$p" >/dev/null ||
		{ echo "check-citations: 'patches/$p' does not apply" >&2; exit 2; }
	case "$p" in
	drivers/*/0001-*push-down*) ;;
	*) continue ;;
	esac
	sed -n '/^Entry points:/,/^Signed-off-by:/p' "$patches/$p" | tr -s '\n ' '  ' |
		FIX=$fix PATCHFILE="$patches/$p" perl -e '
		my ($patch, $text) = ($ARGV[0], join("", <STDIN>));
		my %fixes;
		sub lines_of { my ($f) = @_; open(my $fh, "<", $f) or return (); return <$fh> }
		# a registration: a call of it, its name as an argument (module_driver()),
		# or the macro that registers a misc device at module init
		sub reg_re { my ($name) = @_;
			return $name eq "misc_register" ? qr/\b_*misc_register\b|\bmodule_misc_device\s*\(/ :
				qr/\b_*\Q$name\E\b/ }
		# a store: the member assigned, or the table named in a positional initializer
		sub store_re { my ($what, $table) = @_; (my $m = $what) =~ s/.*\.//;
			return $table ne "" ? qr/(\.|->)\s*\Q$m\E\s*=[^=]|&\Q$table\E\b/ :
				qr/(\.|->)\s*\Q$m\E\s*=[^=]/ }
		# the line nearest to $l that matches $re, within [$from, $to]
		sub nearest { my ($ls, $l, $re, $from, $to) = @_; my $best;
			for my $i ($from .. $to) { next unless $ls->[$i - 1] =~ $re;
				$best = $i if !defined $best || abs($i - $l) < abs($best - $l) }
			return $best }
		# The registration of this table, when the file says which: a line
		# naming the table or a variable whose initializer holds it
		# (wdt_miscdev = { .fops = &wdt_fops }); undef when no registration
		# line names either (misc_register(&priv->misc)): any one then.
		sub reg_obj_re { my ($ls, $name, $table) = @_; return undef if $table eq "";
			my $text = join("", @$ls); my @names = ($table);
			while ($text =~ /(\w+)\s*=\s*\{((?:[^{}]|\{[^{}]*\})*)\}/g) {
				my ($v, $body) = ($1, $2);
				push @names, $v if $body =~ /[&=\s]\Q$table\E\b/ }
			my $re = join("|", map { quotemeta } @names);
			my $reg = reg_re($name);
			return (grep { /$reg/ && /\b(?:$re)\b/ } @$ls) ? qr/\b(?:$re)\b/ : undef }
		sub place { my ($how, $what, $fn, $member, $table, $f, $l) = @_;
			my @ls = lines_of($f); return undef unless @ls;
			(my $name = $what) =~ s/^_+//;
			if ($how eq "registered by") {
				my ($reg, $obj) = (reg_re($name), reg_obj_re(\@ls, $name, $table));
				return nearest(\@ls, $l, defined $obj ? qr/(?=.*$obj)$reg/ : $reg, 1, scalar @ls) }
			return nearest(\@ls, $l, store_re($what, $table), 1, scalar @ls) if $how eq "stored in";
			my $best;	# called by: a call through ->member, inside a definition of $what
			for my $i (1 .. scalar @ls) {
				next unless $ls[$i - 1] =~ /^\S.*\b\Q$what\E\s*\([^;]*$/;
				my $end = $i; $end++ while $end < @ls && $ls[$end - 1] !~ /^}/;
				my $c = nearest(\@ls, $l, qr/->\s*\Q$member\E\s*\(|\b\Q$fn\E\s*\(/, $i, $end);
				$best = $c if defined $c && (!defined $best || abs($c - $l) < abs($best - $l));
			}
			return $best }
		sub line_of { my ($f, $l) = @_; open(my $fh, "<", $f) or return undef;
			my $n = 0; while (<$fh>) { return $_ if ++$n == $l } return undef }
		# one entry: "fn() in file: ->member() of table, <how> at F:L, called by c() at F:L"
		while ($text =~ /(\w+)\(\) in (\S+?): ->(\w+)\(\)(.*?)(?=\s\w+\(\) in \S+?: ->|$)/g) {
			my ($fn, $member, $rest) = ($1, $3, $4);
			my $table = $rest =~ /^ of (\w+)/ ? $1 : "";
			while ($rest =~ /(registered by|called by|stored in) (\S+?)(?:\(\))? at (\S+?):(\d+)/g) {
				my ($how, $what, $f, $l) = ($1, $2, $3, $4);
				my $line = line_of($f, $l);
				my $name = $what; $name =~ s/^_+//;
				my $obj = $how eq "registered by" ? reg_obj_re([lines_of($f)], $name, $table) : undef;
				my $ok = defined $line && (
					$how eq "registered by" ? $line =~ reg_re($name) && (!defined $obj || $line =~ $obj) :
					$how eq "called by" ? ($line =~ /->\s*\Q$member\E\s*\(/ || $line =~ /\b\Q$fn\E\s*\(/) :
					$line =~ store_re($what, $table));
				print "C\n";
				next if $ok;
				if ($ENV{FIX} && defined(my $to = place($how, $what, $fn, $member, $table, $f, $l))) {
					$fixes{$fn}{"$f:$l"} = "$f:$to";
					print "patches/$patch: $how $what at $f:$l: now $f:$to\n";
					next;
				}
				$line = defined $line ? $line : "(no such line)";
				$line =~ s/^\s+|\s+$//g;
				print "W\npatches/$patch: $how $what at $f:$l: the line holds: \"$line\"\n";
			}
		}
		if (%fixes) {	# in the Entry points section only, each in the lines of its entry
			open(my $in, "<", $ENV{PATCHFILE}) or die; my @all = <$in>; close($in);
			my ($on, $fn) = (0, "");
			for (@all) {
				$on = 1 if /^Entry points:/; $on = 0 if /^Signed-off-by:/;
				next unless $on;
				$fn = $1 if /^\s*(\w+)\(\) in /;
				my $fx = $fixes{$fn} or next;
				for my $k (keys %$fx) { s/(?<![\w\/.])\Q$k\E(?!\d)/$fx->{$k}/g }
			}
			open(my $out, ">", $ENV{PATCHFILE}) or die; print $out @all; close($out);
		}' "$p"
	echo P
done >"$tmp/out"
grep -v '^[CPW]$' "$tmp/out" || :
cites=$(grep -c '^C$' "$tmp/out" || :)
pds=$(grep -c '^P$' "$tmp/out" || :)
wrong=$(grep -c '^W$' "$tmp/out" || :)
echo "$cites citations in $pds push-downs, $wrong wrong"
[ "$wrong" = 0 ]
