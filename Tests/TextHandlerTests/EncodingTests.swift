import Foundation
import SwiftPrint
import TestSupport
import Testing

/// Every encoding swiftprint(1) promises to guess, made by iconv from UTF-8 text, printed and read
/// back; and the byte-order marks.
@Suite struct EncodingTests {
    static let samples: [(iconv: String, detected: String, text: String)] = [
        ("EUC-JP", "EUC-JP", "日本語のテキストです。これは EUC-JP で書かれた文章の例です。東京は日本の首都で、人口がとても多い都市です。"),
        ("GB18030", "GB18030", "我能吞下玻璃而不伤身体。这是一段用国标编码的中文文本，用于测试编码检测是否正确，北京是中国的首都。"),
        ("BIG5", "BIG5", "我能吞下玻璃而不傷身體。這是一段用大五碼編碼的繁體中文文字，用於測試編碼偵測是否正確，臺北是一座城市。"),
        ("EUC-KR", "CP949", "나는 유리를 먹을 수 있어요. 그래도 아프지 않아요. 이것은 한국어 텍스트입니다. 서울은 대한민국의 수도입니다."),
        ("KOI8-R", "KOI8-R", "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства."),
        // Curly quotes and dashes are windows-1252's own bytes (0x80…0x9F): not ISO-8859-15.
        ("WINDOWS-1252", "WINDOWS-1252", "« Il a dit “bonjour” — puis il est parti… » Le café était très chaud, la crème brûlée délicieuse, et l'œuvre d'art magnifique."),
        ("ISO-8859-15", "ISO-8859-15", "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au delà des îles, près du mälström où brûlent les novæ. Prix : 15 €."),
    ]

    @Test(arguments: samples.map(\.iconv))
    func aLegacyEncodingIsGuessed(iconv: String) throws {
        let sample = try #require(Self.samples.first { $0.iconv == iconv })
        let encoded = try Tool.run("iconv", ["-f", "UTF-8", "-t", iconv], stdin: Data((sample.text + "\n").utf8))
        try #require(encoded.status == 0, "\(encoded.stderr)")
        let (pdf, _, formatter) = try convert(textFile(Array(encoded.stdout)))
        #expect(formatter.detectedEncoding?.iconvName == sample.detected)
        #expect(try squash(PDF.text(pdf)).contains(squash(sample.text)))
    }

    @Test(arguments: [
        ("UTF-8", [0xEF, 0xBB, 0xBF] as [UInt8]),
        ("UTF-16BE", [0xFE, 0xFF]),
        ("UTF-32LE", [0xFF, 0xFE, 0x00, 0x00]),
        ("UTF-32BE", [0x00, 0x00, 0xFE, 0xFF]),
    ])
    func aByteOrderMarkNamesTheEncoding(encoding: String, bom: [UInt8]) throws {
        let text = "Grüße, 世界 — 𝐀𝐁𝐂 ✓\n"
        let body = try Tool.run("iconv", ["-f", "UTF-8", "-t", encoding], stdin: Data(text.utf8)).stdout
        let (pdf, _, formatter) = try convert(textFile(bom + Array(body)))
        #expect(formatter.detectedEncoding?.iconvName == encoding)
        let extracted = try PDF.text(pdf)
        #expect(squash(extracted).contains(squash(text)))
        #expect(!extracted.contains("\u{FEFF}") && !extracted.contains("ï»¿"), "the mark is not printed")
    }

    /// Tabs go to every eighth column, counted from the line's start, as a terminal shows them.
    @Test func tabsStopEveryEightColumns() throws {
        let (pdf, _, _) = try convert(textFile(Array("a\tb\nabcdefg\tc\nabcdefgh\td\n\te\n".utf8)))
        let words = try PDF.words(pdf, page: 1)
        let zero = try #require(PDF.words(convert(textFile(Array("0000000000\n".utf8))).path, page: 1).first)
        let cell = (zero.xMax - zero.xMin) / 10
        for (word, column) in [("b", 8), ("c", 8), ("d", 16), ("e", 8)] {
            let x = try #require(words.first { $0.word == word }?.xMin)
            #expect(abs(x - (36 + Double(column) * cell)) < 0.05, "\(word) at \(x)")
        }
    }
}
