// How each engine is told to send all non-loopback traffic to the oracle's refusing proxy
// (src/coordinator/egress-guard.ts). Loopback stays direct: that is where case pages live.
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

export function chromiumIsolationArgs(proxyUrl: string): string[] {
  // Chromium never proxies loopback by default; WebRTC UDP would bypass a proxy, so forbid it.
  return [`--proxy-server=${proxyUrl}`, '--force-webrtc-ip-handling-policy=disable_non_proxied_udp'];
}

export function firefoxIsolationPrefs(proxyUrl: string): Record<string, string | number | boolean> {
  const { hostname, port } = new URL(proxyUrl);
  return {
    'network.proxy.type': 1,
    'network.proxy.http': hostname,
    'network.proxy.http_port': Number(port),
    'network.proxy.ssl': hostname,
    'network.proxy.ssl_port': Number(port),
    'network.proxy.share_proxy_settings': true,
    'network.proxy.no_proxies_on': LOOPBACK.join(','),
    'network.proxy.allow_hijacking_localhost': false,
    'network.proxy.socks_remote_dns': true,
    'media.peerconnection.ice.proxy_only': true,
    'network.dns.disablePrefetch': true,
    'network.prefetch-next': false,
  };
}

export function miniBrowserIsolationArgs(proxyUrl: string): string[] {
  return [`--proxy=${proxyUrl}`, ...LOOPBACK.map((host) => `--ignore-host=${host}`)];
}
