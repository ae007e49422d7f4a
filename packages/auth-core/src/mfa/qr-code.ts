import { renderSVG } from "uqr";

/**
 * A QR code of `text` as an SVG document, drawn here: nothing leaves the machine. Medium error
 * correction and the four-module quiet zone the QR standard asks for, so phone cameras read it.
 */
export function qrCodeSvg(text: string): string {
  return renderSVG(text, { ecc: "M", border: 4 });
}
