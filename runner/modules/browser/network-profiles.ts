// k6's `networkProfiles` export and the CDP parameters page.throttleNetwork sends for a profile
// (k6: common/network_profile.go; latency in ms, throughputs in bytes/s, -1 for no limit).

export interface NetworkProfile {
  latency: number;
  download: number;
  upload: number;
}

/** The profiles k6 exports, under k6's names. */
export function networkProfiles(): Record<string, NetworkProfile> {
  return {
    'No Throttling': { latency: 0, download: -1, upload: -1 },
    // 500 kbit/s less 20 % loss, 400 ms RTT x 5 (Chrome DevTools' preset).
    'Slow 3G': { latency: 400 * 5, download: ((500 * 1000) / 8) * 0.8, upload: ((500 * 1000) / 8) * 0.8 },
    // 1.6 Mbit/s down, 750 kbit/s up less 10 % loss, 150 ms RTT x 3.75.
    'Fast 3G': {
      latency: 150 * 3.75,
      download: ((1.6 * 1000 * 1000) / 8) * 0.9,
      upload: ((750 * 1000) / 8) * 0.9,
    },
  };
}

/** Network.emulateNetworkConditions' parameters; a field the profile lacks is k6's zero value. */
export function networkConditions(profile: Partial<NetworkProfile> | undefined): {
  offline: boolean;
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
} {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    offline: false,
    latency: num(profile?.latency),
    downloadThroughput: num(profile?.download),
    uploadThroughput: num(profile?.upload),
  };
}
