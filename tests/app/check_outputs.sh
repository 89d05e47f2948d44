#!/usr/bin/env bash
# Issue 50's output cases, one per call (each a CTest test):
#   check_outputs.sh CASE BUILD_DIR INSTANCES WORKDIR
# stdout_full      an answer printed into /dev/full is a failure: exit 4 and one line on stderr,
#                  on 1 rank and on 2 (rank 0's stdout is /dev/full), nqueens and ns
# stdout_closed    the same with stdout closed (>&-)
# full_fs          --stats, --timeline, --trace on a full file system: the answer is printed, exit 4,
#                  one line naming the option, and no file left at the path (a file that was there
#                  is unchanged)
# planted_outputs  an output path that is a symbolic link (to a file of the user's), a file of another
#                  user, the input file (by name, by a hard link), or another output's path is refused
#                  before the search (exit 2), and nothing is written
# Answers: n queens solutions from OEIS A000170 (10: 724); semigroups of genus 20: 37396 (OEIS A007323);
# brock200_1: omega 21 (instances/dimacs/ANSWERS.tsv).
set -uo pipefail
case_="$1"; build="$2"; inst="$3"; work="$4"
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
nq="$build/apps/nqueens/nqueens"; ns="$build/apps/ns/ns"; mc="$build/apps/maxclique/maxclique"
fail() { echo "FAIL $*"; exit 1; }
mpi=(timeout 120 mpirun --oversubscribe -n 2 --bind-to none)
[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
t() { timeout 120 "$@"; }

# expect_undelivered NAME RC PATTERN: exit 4 and exactly one error line on stderr (file err), matching.
expect_undelivered() {
  [ "$2" -eq 4 ] || fail "$1: exit $2, expected 4: $(cat err)"
  [ "$(grep -c ': error: ' err)" -eq 1 ] || fail "$1: not one error line: $(cat err)"
  grep -q -- "$3" err || fail "$1: the message does not say '$3': $(cat err)"
  echo "ok   $1"
}
# expect_refused NAME RC PATTERN: exit 2 before the search (no answer on stdout, file out), one message.
expect_refused() {
  [ "$2" -eq 2 ] || fail "$1: exit $2, expected 2: $(cat err)"
  grep -q -- "$3" err || fail "$1: the message does not say '$3': $(cat err)"
  ! grep -q "status:" out || fail "$1: the search ran: $(cat out)"
  echo "ok   $1"
}

case $case_ in
stdout_full)
  t "$nq" -n 10 >/dev/full 2>err; expect_undelivered "nqueens > /dev/full" $? "standard output: the answer could not be written (No space left on device)"
  t "$ns" -g 20 >/dev/full 2>err; expect_undelivered "ns > /dev/full" $? "standard output: the answer could not be written"
  # mpirun forwards rank 0's output and drops its own write errors (Open MPI 4.1), so rank 0's own
  # stdout is the one that can be checked: each rank's is /dev/full here.
  "${mpi[@]}" sh -c 'exec "$0" -n 10 --skeleton budget --threads 1 >/dev/full' "$nq" 2>err
  expect_undelivered "nqueens on 2 ranks, rank 0's stdout /dev/full" $? "standard output: the answer could not be written"
  # The same answer delivered: exit 0 (the check does not fail a good run).
  t "$nq" -n 10 >out 2>err || fail "nqueens -n 10 > file: exit $?: $(cat err)"
  grep -q "solutions: 724" out || fail "8 queens: $(cat out)" ;;
stdout_closed)
  t "$nq" -n 10 >&- 2>err; expect_undelivered "nqueens >&-" $? "standard output is closed"
  "${mpi[@]}" sh -c 'exec "$0" -n 10 --skeleton budget --threads 1 >&-' "$nq" 2>err
  expect_undelivered "nqueens on 2 ranks, rank 0's stdout closed" $? "standard output is closed"
  # With stdout closed, a file the run opens must not take its place: --stats still gets the JSON.
  t "$nq" -n 10 --stats s.json >&- 2>err; expect_undelivered "nqueens >&- --stats" $? "standard output is closed"
  grep -q '"solutions": 724' s.json || fail "--stats with stdout closed: $(cat s.json)" ;;
full_fs)
  # A small tmpfs, filled up: mounted in a new mount namespace (as an unprivileged user, in a user
  # namespace too), so nothing outside this test sees it.
  if unshare --user --map-root-user --mount true 2>/dev/null; then ns_=(unshare --user --map-root-user --mount)
  elif unshare --mount true 2>/dev/null; then ns_=(unshare --mount)
  else echo "SKIP: cannot mount a small file system here (unshare --mount is not permitted)"; exit 77; fi
  mkdir -p fs
  cat >inner.sh <<'EOF'
set -u
nq="$1"
mount -t tmpfs -o size=64k none fs || exit 90
echo "old" >fs/old.json
dd if=/dev/zero of=fs/filler bs=4k count=100 2>/dev/null   # until the file system is full
for opt in --stats --timeline --trace; do
  name=${opt#--}
  timeout 120 "$nq" -n 10 --skeleton budget --threads 1 "$opt" "fs/$name.out" >"out.$name" 2>"err.$name"; echo $? >"rc.$name"
  ls -a fs >"ls.$name"
done
timeout 120 "$nq" -n 10 --skeleton budget --threads 1 --stats fs/old.json >out.old 2>err.old; echo $? >rc.old
cp fs/old.json old.after
EOF
  "${ns_[@]}" bash inner.sh "$nq"; rc=$?
  [ $rc -eq 90 ] && { echo "SKIP: mount -t tmpfs is not permitted here"; exit 77; }
  for name in stats timeline trace; do
    cp "err.$name" err; cp "out.$name" out
    grep -q "solutions: 724" out || fail "--$name on a full file system: the answer was not printed: $(cat out)"
    expect_undelivered "--$name on a full file system" "$(cat "rc.$name")" "--$name fs/$name.out: not written: No space left on device; no file was left there"
    ! grep -q -e "^$name.out" -e "part-" "ls.$name" || fail "--$name: a file was left behind: $(cat "ls.$name")"
  done
  cp err.old err; cp out.old out
  expect_undelivered "--stats over an existing file on a full file system" "$(cat rc.old)" "not written: No space left on device"
  [ "$(cat old.after)" = "old" ] || fail "the file that was there changed: $(cat old.after)" ;;
planted_outputs)
  cp "$inst/dimacs/brock200_1.clq" g.clq
  sum=$(sha1sum g.clq); echo "mine" >victim.txt
  ln -s victim.txt link.json; ln -s g.clq link.clq; ln g.clq hard.clq
  for opt in --stats --timeline --trace; do
    t "$mc" g.clq "$opt" link.json >out 2>err; expect_refused "$opt through a symbolic link" $? "$opt link.json: is a symbolic link: refused"
    t "$mc" g.clq "$opt" g.clq >out 2>err; expect_refused "$opt naming the input" $? "$opt g.clq: is the input file 'g.clq': refused"
    t "$mc" g.clq "$opt" link.clq >out 2>err; expect_refused "$opt through a link to the input" $? "is a symbolic link: refused"
    t "$mc" g.clq "$opt" hard.clq >out 2>err; expect_refused "$opt naming a hard link to the input" $? "is the input file 'g.clq': refused"
  done
  [ "$(cat victim.txt)" = "mine" ] || fail "the link's target was written: $(cat victim.txt)"
  [ "$(sha1sum g.clq)" = "$sum" ] || fail "the input file was changed"
  t "$mc" g.clq --stats a.json --timeline a.json >out 2>err; expect_refused "--stats and --timeline on one file" $? "the same file as --stats"
  # A file another user left at the path (root can give it away; others cannot make one).
  if [ "$(id -u)" -eq 0 ]; then
    echo "theirs" >theirs.json; chown 65534:65534 theirs.json
    t "$mc" g.clq --stats theirs.json >out 2>err; expect_refused "--stats naming another user's file" $? "belongs to another user (uid 65534): refused"
    [ "$(cat theirs.json)" = "theirs" ] || fail "another user's file was written"
  fi
  # A path of the user's own is written whole: the answer, and the JSON (omega 21).
  t "$mc" g.clq --stats mine.json >out 2>err || fail "--stats mine.json: exit $?: $(cat err)"
  grep -q "omega = 21" out && grep -q '"omega": 21' mine.json || fail "brock200_1: $(cat out)" ;;
*) echo "unknown case $case_"; exit 2 ;;
esac
echo "ok $case_"
