// Network isolation: every request Firefox makes, loopback included, goes to the oracle's proxy
// (LaunchOptions.proxyUrl), which serves only the oracle's own documents and refuses the rest.
// So a case reaches no other loopback port or address (127.0.0.2, foo.localhost, 2130706433,
// [::ffff:127.0.0.1] and [::1] all go to the proxy too: measured on firefox-esr 153).
import type { Prefs } from './pref-map.js';

export function networkPrefs(proxyUrl: string): Prefs {
  const { hostname, port } = new URL(proxyUrl);
  return {
    'network.proxy.type': 1,
    'network.proxy.http': hostname,
    'network.proxy.http_port': Number(port),
    'network.proxy.ssl': hostname,
    'network.proxy.ssl_port': Number(port),
    'network.proxy.share_proxy_settings': true,
    // Firefox never proxies loopback unless told to, and then only hosts not listed here.
    'network.proxy.no_proxies_on': '',
    'network.proxy.allow_hijacking_localhost': true,
    // Trace pages are served at http://localhost and must stay a secure context. Hijacked
    // localhost is not one when this is false (measured); its default is not ours to rely on.
    'network.proxy.testing_localhost_is_secure_when_hijacked': true,
    'network.proxy.socks_remote_dns': true,
    // WebRTC may use no address of its own: only the proxy, which refuses it.
    'media.peerconnection.ice.proxy_only': true,
    'network.dns.disablePrefetch': true,
    'network.prefetch-next': false,
  };
}
