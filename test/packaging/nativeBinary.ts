// Tells a native binary's operating system and CPU from its header: ELF (Linux), PE (Windows) or Mach-O (macOS, thin or fat).

export type BinaryFormat = 'elf' | 'pe' | 'mach-o';

export interface NativeBinary {
  readonly format: BinaryFormat;
  /** The CPUs it is built for (a fat Mach-O may hold several). */
  readonly architectures: readonly string[];
}

const ELF_MACHINES: Record<number, string> = { 0x3e: 'x64', 0xb7: 'arm64', 0x03: 'ia32', 0x28: 'arm' };
const PE_MACHINES: Record<number, string> = { 0x8664: 'x64', 0xaa64: 'arm64', 0x014c: 'ia32' };
const MACH_O_CPUS: Record<number, string> = { 0x01000007: 'x64', 0x0100000c: 'arm64', 0x07: 'ia32' };

/** The binary a file's first bytes describe, or undefined when it is not an ELF, PE or Mach-O file. */
export function nativeBinaryOf(head: Buffer): NativeBinary | undefined {
  if (head.length < 8) return undefined;
  if (head.readUInt32BE(0) === 0x7f454c46) {
    // ELF: e_ident[EI_DATA] = 1 little-endian; e_machine at offset 18.
    const machine = head[5] === 2 ? head.readUInt16BE(18) : head.readUInt16LE(18);
    return { format: 'elf', architectures: [ELF_MACHINES[machine] ?? `elf-machine-${machine}`] };
  }
  if (head.readUInt16LE(0) === 0x5a4d && head.length >= 0x40) {
    const peOffset = head.readUInt32LE(0x3c);
    if (peOffset + 6 <= head.length && head.readUInt32BE(peOffset) === 0x50450000) {
      const machine = head.readUInt16LE(peOffset + 4);
      return { format: 'pe', architectures: [PE_MACHINES[machine] ?? `pe-machine-${machine.toString(16)}`] };
    }
    return undefined;
  }
  const magic = head.readUInt32BE(0);
  if (magic === 0xcffaedfe || magic === 0xcefaedfe) {
    const cpu = head.readUInt32LE(4);
    return { format: 'mach-o', architectures: [MACH_O_CPUS[cpu] ?? `mach-o-cpu-${cpu.toString(16)}`] };
  }
  if (magic === 0xcafebabe) {
    // Fat Mach-O (big-endian header); Java class files share the magic but have a version, not a small count, here.
    const count = head.readUInt32BE(4);
    if (count === 0 || count > 8) return undefined;
    const architectures: string[] = [];
    for (let index = 0; index < count && 8 + index * 20 + 4 <= head.length; index++) {
      const cpu = head.readUInt32BE(8 + index * 20);
      architectures.push(MACH_O_CPUS[cpu] ?? `mach-o-cpu-${cpu.toString(16)}`);
    }
    return { format: 'mach-o', architectures };
  }
  return undefined;
}

/** The binary format and CPU a VS Code target needs. */
export function expectedBinary(target: string): { format: BinaryFormat; architecture: string } {
  const [platform, architecture] = target.split('-') as [string, string];
  const format: BinaryFormat = platform === 'darwin' ? 'mach-o' : platform === 'win32' ? 'pe' : 'elf';
  return { format, architecture };
}
