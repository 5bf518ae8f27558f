import { endianness } from 'node:os';

/*
 * Z5: the seccomp filter (a classic BPF program, as bwrap's `--seccomp` takes it) that keeps a
 * handler without network from the host's unix sockets. Its own network namespace cuts it from
 * every network and from abstract unix sockets, but a socket file (an ssh-agent's, docker.sock, a
 * desktop bus) is reached through the file system, which stays readable (Z3), and connecting to
 * one needs no write. So creating a unix socket fails with EACCES (socketpair, which reaches
 * nothing outside, stays allowed), and so does io_uring_setup, which could create one without the
 * `socket` call. The program checks the calling architecture: on those it does not name, it allows
 * everything.
 */

const LD_ABS = 0x20;
const JEQ = 0x15;
const RET = 0x06;
const ALLOW = 0x7fff0000;
const DENY = 0x00050000 | 13; // SECCOMP_RET_ERRNO | EACCES
const AF_UNIX = 1;
/** Offsets in struct seccomp_data: the syscall number, the architecture, args[0] (low half). */
const NR = 0;
const ARCH = 4;
const LITTLE = endianness() === 'LE';
const ARG0 = LITTLE ? 16 : 20;

type Insn = [code: number, jt: number, jf: number, k: number];
/** Per architecture (AUDIT_ARCH_*): the `socket` calls (checked for AF_UNIX), the calls denied. */
const ARCHES: ReadonlyArray<{ arch: number; socket: number[]; deny: number[] }> = [
  // x86_64, and x32 (the same architecture, numbers with bit 30 set)
  { arch: 0xc000003e, socket: [41, 0x40000029], deny: [425, 0x400001a9] },
  // i386 (on x86_64 too): socketcall multiplexes every socket call, so it is denied whole
  { arch: 0x40000003, socket: [359], deny: [102, 425] },
  { arch: 0xc00000b7, socket: [198], deny: [425] }, // aarch64
  { arch: 0x40000028, socket: [281], deny: [425] }, // arm
  { arch: 0xc00000f3, socket: [198], deny: [425] }, // riscv64
];

let built: Buffer | null = null;

/**
 * The program, as bwrap reads it: struct sock_filter entries, in the host's byte order. Built once
 * per process; every confined spawn without network hands bwrap the same bytes.
 */
export function unixSocketFilter(): Buffer {
  built ??= buildFilter();
  return built;
}

function buildFilter(): Buffer {
  const program: Insn[] = [];
  for (const { arch, socket, deny } of ARCHES) {
    const body: Insn[] = [[LD_ABS, 0, 0, NR]];
    for (const nr of socket)
      body.push(
        [JEQ, 0, 4, nr],
        [LD_ABS, 0, 0, ARG0],
        [JEQ, 0, 1, AF_UNIX],
        [RET, 0, 0, DENY],
        [RET, 0, 0, ALLOW],
      );
    for (const nr of deny) body.push([JEQ, 0, 1, nr], [RET, 0, 0, DENY]);
    body.push([RET, 0, 0, ALLOW]);
    program.push([LD_ABS, 0, 0, ARCH], [JEQ, 0, body.length, arch], ...body);
  }
  program.push([RET, 0, 0, ALLOW]);
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    if (LITTLE) bytes.writeUInt16LE(code, i * 8);
    else bytes.writeUInt16BE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    if (LITTLE) bytes.writeUInt32LE(k >>> 0, i * 8 + 4);
    else bytes.writeUInt32BE(k >>> 0, i * 8 + 4);
  });
  return bytes;
}
