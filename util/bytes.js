// Sizes as people read them (K = 1024).
export function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${Number.isInteger(value) ? value : value.toFixed(value < 10 ? 2 : 1)} ${unit}`;
}
