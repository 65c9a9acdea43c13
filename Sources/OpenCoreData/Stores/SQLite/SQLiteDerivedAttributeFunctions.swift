import CSQLite
import Foundation

extension SQLiteConnection {
    /// Registers the SQL functions that Apple's derived-attribute triggers call, so a store with
    /// derived attributes stays writable.
    ///
    /// ```sql
    /// -- a trigger Apple's framework created in a store (SampleModel2 fixture):
    /// CREATE TRIGGER Z_DA_ZPAGE_Book_pagesCount_PARAMETER_INSERT AFTER INSERT ON ZPAGE ...
    ///   BEGIN UPDATE ZBOOK SET ZPAGESCOUNT = IFNULL(ZPAGESCOUNT, 0) + 1 WHERE Z_PK = NEW.ZBOOK;
    ///         SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZBOOK', Z_ENT, Z_PK, 'pagesCount', ZPAGESCOUNT) ...
    /// ```
    ///
    /// The triggers themselves keep the derived column right; Apple's functions only tell the
    /// framework which objects changed so it can refresh them. Ours return NULL: a context sees
    /// the new derived value when it next fetches or refreshes the object, and leaves these
    /// attributes to the triggers (``StoreSchema/derivedAttributesWithTriggers(in:model:)``).
    /// Without them every write to such a table fails with "no such function".
    func registerDerivedAttributeFunctions() throws {
        for name in ["NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"] {
            let rc = sqlite3_create_function_v2(handle, name, -1, SQLITE_UTF8, nil, { context, _, _ in sqlite3_result_null(context) }, nil, nil, nil)
            guard rc == SQLITE_OK else { throw SQLiteError(code: rc, extendedCode: rc, message: "can't register function \(name)", sql: nil) }
        }
    }
}

extension StoreSchema {
    /// The derived attributes of `model` ("Entity.attribute") that triggers in the file keep:
    /// Apple names them `Z_DA_<TABLE>_<Entity>_<attribute>_<SOURCE|PARAMETER>_<event>`.
    static func derivedAttributesWithTriggers(in db: SQLiteConnection, model: NSManagedObjectModel) throws -> Set<String> {
        let triggers = try db.query("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'Z\\_DA\\_%' ESCAPE '\\'") { $0.text(at: 0) ?? "" }
        guard !triggers.isEmpty else { return [] }
        var maintained = Set<String>()
        for entity in model.entities {
            for case let attribute as NSDerivedAttributeDescription in entity.properties {
                let marker = "_\(entity.name ?? "")_\(attribute.name)_"
                if triggers.contains(where: { $0.contains(marker) }) { maintained.insert("\(entity.name ?? "").\(attribute.name)") }
            }
        }
        return maintained
    }
}
