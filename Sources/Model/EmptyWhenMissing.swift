import Foundation

/// A group of settings that is never nil (`PrintInfo.sheets`) read as its empty value when a
/// saved copy leaves it out (a preset written before the group existed). With it, `PrintInfo`'s
/// coding is the compiler's: a setting added to it is saved and read back without a key list
/// written by hand that could leave it out.
@propertyWrapper
package struct EmptyWhenMissing<Value: Codable & Hashable & Sendable & EmptyInitializable>: Codable, Hashable, Sendable {
    package var wrappedValue: Value
    package init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    package init(from decoder: Decoder) throws { wrappedValue = try Value(from: decoder) }
    package func encode(to encoder: Encoder) throws { try wrappedValue.encode(to: encoder) }
}

/// A value with an empty form, `init()`: every setting in it unset.
package protocol EmptyInitializable { init() }

extension KeyedDecodingContainer {
    /// The compiler's decoding of an `EmptyWhenMissing` property: its empty value when the key
    /// is missing (the generic `decode` would fail).
    package func decode<Value>(_ type: EmptyWhenMissing<Value>.Type, forKey key: Key) throws -> EmptyWhenMissing<Value> {
        try decodeIfPresent(type, forKey: key) ?? EmptyWhenMissing(wrappedValue: Value())
    }
}
