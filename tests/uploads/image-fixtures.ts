// Images built for the upload tests (no binary fixtures in the repository).
import sharp from 'sharp';

/** A JPEG as a phone writes it at a protest: camera make, model, serial and the GPS position. */
export async function jpegWithGps(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c33' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'Canon', Model: 'EOS 5D', Copyright: 'SN-CAMERA-123456' },
      IFD2: { BodySerialNumber: 'SN-CAMERA-123456' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 2637/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 3966/100',
      },
    })
    .toBuffer();
}
