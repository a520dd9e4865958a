import type { TWorkOrderAttachmentType } from '@proxy/contract';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  return bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/**
 * The image type of a file by its first bytes (the signatures of PNG, JPEG
 * and WebP), whatever its name or declared type; undefined for anything else.
 */
export function sniffImageType(bytes: Uint8Array): TWorkOrderAttachmentType | undefined {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  // RIFF <size> WEBP, then a VP8 / VP8L / VP8X chunk.
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8) && startsWith(bytes, ascii('VP8'), 12))
    return 'image/webp';
  return undefined;
}
