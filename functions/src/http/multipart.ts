import busboy from 'busboy';
import { badRequest } from '../errors';
import { uploadTooLarge } from './api-handler';

export interface UploadedFile {
  fileName: string;
  contentType: string;
  data: Buffer;
}

/**
 * Reads the one file of a multipart/form-data body (field `file`). Refuses, in words, a body
 * that is not multipart, has no file, more than one file (400), or a file over `maxBytes` (413).
 */
export function readSingleFile(body: Buffer, contentType: string | undefined, maxBytes: number): Promise<UploadedFile> {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) {
    return Promise.reject(badRequest('Send the file as multipart/form-data, in a field named "file".'));
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // busboy reports the limit when a file reaches `fileSize`: one byte more lets a file of exactly maxBytes through.
        limits: { files: 2, fileSize: maxBytes + 1, fields: 10 },
      });
    } catch {
      reject(badRequest('The multipart body could not be read: its boundary is missing.'));
      return;
    }
    const files: UploadedFile[] = [];
    let overLimit = false;
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (overLimit = true));
      stream.on('close', () => {
        if (field === 'file')
          files.push({ fileName: info.filename ?? '', contentType: info.mimeType, data: Buffer.concat(chunks) });
      });
    });
    parser.on('error', () => reject(badRequest('The multipart body could not be read: it is cut off or malformed.')));
    parser.on('close', () => {
      if (overLimit) return reject(uploadTooLarge(maxBytes));
      if (files.length === 0)
        return reject(
          badRequest('No file was sent: attach the CSV in a field named "file".', { file: 'The file is required.' }),
        );
      if (files.length > 1) return reject(badRequest('Send one file at a time.'));
      resolve(files[0]!);
    });
    parser.end(body);
  });
}
