/** A file sent as a multipart part with a file name: read by `http`, handed to the actions that store it. */
export interface UploadedFile {
  /** The form field's name. */
  field: string;
  /** The file name as the client sent it. */
  filename: string;
  /** The part's Content-Type; empty when the client sent none. */
  contentType: string;
  data: Buffer;
}
