import Foundation

/// WCAG 2 contrast between two colours: relative luminance of each (sRGB channels linearised), and the
/// ratio (lighter + 0.05) / (darker + 0.05), from 1 (the same) to 21 (black on white).
public enum ContrastRatio {
    /// The relative luminance of `color`, 0 (black) to 1 (white).
    public static func luminance(_ color: RGBColor) -> Double {
        func linear(_ value: UInt8) -> Double {
            let channel = Double(value) / 255
            return channel <= 0.04045 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
    }

    /// The contrast ratio of `first` and `second`, whichever is lighter.
    public static func between(_ first: RGBColor, _ second: RGBColor) -> Double {
        let (a, b) = (luminance(first), luminance(second))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}
