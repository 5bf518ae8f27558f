import { BlockList, isIP } from 'node:net';

/**
 * Whether `host` (a URL's hostname, brackets removed) is an IP address in the subnet
 * `address/prefix` (a NO_PROXY entry such as `10.0.0.0/8` or `fd00::/8`) of its own family, by
 * Node's own address parser and subnet test: no resolver, no I/O. A name, an address of the other
 * family (an IPv4-mapped IPv6 address included) or a prefix longer than the address is not.
 */
export function inSubnet(host: string, address: string, prefix: number): boolean {
  const family = isIP(address);
  if (family === 0 || isIP(host) !== family || prefix > (family === 4 ? 32 : 128)) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const subnet = new BlockList();
  subnet.addSubnet(address, prefix, type);
  return subnet.check(host, type);
}
