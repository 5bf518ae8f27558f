/**
 * IP addresses and CIDR subnets as NO_PROXY's entries name them (`10.0.0.0/8`, `fd00::/8`), read
 * with the URL parser only: no resolver, no I/O.
 */

/**
 * Whether `host` (a URL's hostname, brackets removed) is an IP address in the subnet
 * `address/prefix` of its own family. A name, an address of the other family or a prefix longer
 * than the address is not.
 */
export function inSubnet(host: string, address: string, prefix: number): boolean {
  const hostBits = addressBits(host);
  const subnetBits = addressBits(address);
  if (hostBits === null || subnetBits === null || hostBits.length !== subnetBits.length)
    return false;
  if (prefix > hostBits.length) return false;
  return hostBits.slice(0, prefix) === subnetBits.slice(0, prefix);
}

/** The address as a string of 32 (IPv4, dotted decimal) or 128 (IPv6) bits, else null. */
function addressBits(text: string): string | null {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4 !== null) {
    const octets = v4.slice(1).map(Number);
    if (octets.some((octet) => octet > 255)) return null;
    return octets.map((octet) => octet.toString(2).padStart(8, '0')).join('');
  }
  if (!text.includes(':')) return null;
  let canonical: string;
  try {
    // The URL parser's IPv6 serialization: lower-case hex groups, `::` at most once, no dots.
    canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = '', tail] = canonical.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  const groups = tail === undefined ? headGroups : [...headGroups, ...zeros, ...tailGroups];
  return groups.map((group) => Number.parseInt(group, 16).toString(2).padStart(16, '0')).join('');
}
