/** A chosen file's bytes (FileReader where Blob.arrayBuffer is missing: older browsers, jsdom). */
export async function bytesOf(file: Blob): Promise<Uint8Array> {
  if (typeof file.arrayBuffer === 'function') return new Uint8Array(await file.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(file);
  });
}

/** A chosen file's bytes as base64, the body of the console's file calls (imports, bill files, assets). */
export async function base64Of(file: Blob): Promise<string> {
  const bytes = await bytesOf(file);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
